import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** An account the scripted session server knows: its access token, Mojang UUID (undashed) and name. */
export interface SessionAccount {
  readonly accessToken: string;
  readonly id: string;
  readonly name: string;
}

/** The skin property every profile answered carries (a value and a signature, as Mojang's `textures`). */
export const SCRIPTED_TEXTURES = { name: "textures", value: "eyJ0ZXh0dXJlcyI6e319", signature: "c2lnbmVk" };

/**
 * A scripted Mojang session server on 127.0.0.1, speaking the two calls of online-mode login:
 * `POST /session/minecraft/join` (the client, with its access token and the server hash) and
 * `GET /session/minecraft/hasJoined?username=…&serverId=…` (the server: 200 with the profile when that
 * name joined that hash, 204 otherwise, as Mojang answers).
 */
export interface ScriptedSessionServer {
  readonly url: string;
  /** The server hashes clients joined, per name. */
  readonly joins: { readonly name: string; readonly serverId: string }[];
  /** Every `hasJoined` asked: name and hash. */
  readonly checks: { readonly username: string; readonly serverId: string }[];
  close(): Promise<void>;
}

export const startSessionServer = async (
  accounts: readonly SessionAccount[],
): Promise<ScriptedSessionServer> => {
  const joins: { name: string; serverId: string }[] = [];
  const checks: { username: string; serverId: string }[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method === "POST" && url.pathname === "/session/minecraft/join") {
      void readJson(request).then((body) => {
        const account = accounts.find((candidate) => candidate.accessToken === body.accessToken);
        if (account === undefined || body.selectedProfile !== account.id) {
          response.writeHead(403, { "content-type": "application/json" });
          response.end(
            JSON.stringify({ error: "ForbiddenOperationException", errorMessage: "Invalid token" }),
          );
          return;
        }
        joins.push({ name: account.name, serverId: String(body.serverId) });
        response.writeHead(204).end();
      });
      return;
    }
    if (request.method === "GET" && url.pathname === "/session/minecraft/hasJoined") {
      const username = url.searchParams.get("username") ?? "";
      const serverId = url.searchParams.get("serverId") ?? "";
      checks.push({ username, serverId });
      const joined = joins.find((join) => join.name === username && join.serverId === serverId);
      const account = accounts.find((candidate) => candidate.name === username);
      if (joined === undefined || account === undefined) {
        response.writeHead(204).end();
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ id: account.id, name: account.name, properties: [SCRIPTED_TEXTURES] }));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    joins,
    checks,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

const readJson = async (request: IncomingMessage): Promise<Record<string, unknown>> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
};
