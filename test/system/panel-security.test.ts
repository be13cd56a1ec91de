import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { CardActionRequest } from "../../src/agent/request/card-action-request.js";
import { ChatRequest } from "../../src/agent/request/chat-request.js";
import type { AgentResponse } from "../../src/agent/response/agent-response.js";
import { BindingResponse } from "../../src/agent/response/binding-response.js";
import { ProtocolClient } from "../../src/agent/response/protocol-client.js";
import { WebSocketFrameChannel } from "../../src/util/frame-transport.js";
import {
  joinPlayer,
  type Player,
  type ShippedServer,
  startShipped,
  uuidOf,
  waitFor,
} from "./system-support.js";

interface Browserless {
  readonly csrf: string;
  cookie(extra?: string): string;
  /** The headers the page sends with a state change: its cookies, the CSRF token and its origin. */
  headers(origin: string): Record<string, string>;
}

/** What a browser would hold before binding: the double-submit token from `/api/session`. */
const visit = async (url: string): Promise<Browserless> => {
  const response = await fetch(`${url}/api/session`);
  const csrf = /system_csrf=([^;]+)/.exec(response.headers.get("set-cookie") ?? "")?.[1] ?? "";
  const cookie = (extra?: string): string =>
    [`system_csrf=${csrf}`, ...(extra === undefined ? [] : [extra])].join("; ");
  return { csrf, cookie, headers: (origin) => ({ Cookie: cookie(), Origin: origin, "X-System-CSRF": csrf }) };
};

const post = (url: string, path: string, body: unknown, headers: Record<string, string>): Promise<Response> =>
  fetch(`${url}${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...headers },
  });

const codeOf = async (player: Player): Promise<string> => {
  const reply = await player.say("/system bind", (m) => m.text.startsWith("Your web panel code"));
  return /code: ([A-Z0-9]{8})/.exec(reply.text)?.[1] ?? "";
};

/** Opens the panel's WebSocket as a browser would (Origin and cookie headers); resolves with the protocol client. */
const openPanel = (url: string, headers: Record<string, string>): Promise<ProtocolClient> =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/u, "ws")}/ws`, { headers });
    socket.once("unexpected-response", (_request, response) =>
      reject(new Error(`refused ${response.statusCode}`)),
    );
    socket.once("error", reject);
    socket.once("open", () => {
      ProtocolClient.connect(new WebSocketFrameChannel(socket), { client: "test" }).then(resolve, reject);
    });
  });

/**
 * The web panel's security on the shipped server, without a browser: CSRF and Origin checks on binding, single-use
 * codes, sessions stored only as hashes, the WebSocket's Origin and session checks, forged and stale card clicks
 * refused, the per-session rate limit, INVALIDATED on an admin's reset, and a panel acting only for an online player.
 */
describe("web panel security (shipped server)", () => {
  let server: ShippedServer;
  let url: string;
  let admin: Player;

  beforeAll(async () => {
    server = await startShipped({ ops: ["Admin"] });
    url = server.system.panelUrl ?? "";
    admin = await joinPlayer(server.port, "Admin");
  }, 120_000);

  afterAll(async () => {
    admin?.quit();
    await server?.close();
  });

  it("binds only with the token, the origin and an unused code; keeps only a hash of the session", async () => {
    const dee = await joinPlayer(server.port, "Dee");
    try {
      const browser = await visit(url);
      expect(browser.csrf.length).toBeGreaterThan(16);
      const code = await codeOf(dee);
      const noToken = await post(url, "/api/bind", { code }, { Cookie: browser.cookie(), Origin: url });
      expect(noToken.status).toBe(403);
      const elsewhere = await post(url, "/api/bind", { code }, browser.headers("http://evil.example"));
      expect(elsewhere.status).toBe(403);
      const bound = await post(url, "/api/bind", { code }, browser.headers(url));
      expect(bound.status).toBe(200);
      expect(await bound.json()).toEqual({ player: "Dee", locale: "en_us", admin: false, mode: "routing" });
      const setCookie = bound.headers.get("set-cookie") ?? "";
      expect(setCookie).toMatch(
        /system_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+/,
      );
      const token = /system_session=([^;]+)/.exec(setCookie)?.[1] ?? "";
      // single use
      const again = await post(url, "/api/bind", { code }, browser.headers(url));
      expect(again.status).toBe(400);
      // the server keeps the SHA-256 of the token, never the token
      const stored = readFileSync(
        join(server.system.dataDir, "world", "system", "panel-sessions.json"),
        "utf8",
      );
      expect(stored).not.toContain(token);
      expect(stored).toContain(createHash("sha256").update(token).digest("hex"));
      const session = await fetch(`${url}/api/session`, { headers: { Cookie: `system_session=${token}` } });
      expect(await session.json()).toEqual({
        bound: true,
        player: "Dee",
        locale: "en_us",
        admin: false,
        mode: "routing",
      });

      // the WebSocket: the panel's own origin with a bound session only
      await expect(
        openPanel(url, { Origin: "http://evil.example", Cookie: `system_session=${token}` }),
      ).rejects.toThrow("refused 403");
      await expect(openPanel(url, { Origin: url })).rejects.toThrow("refused 401");
      const client = await openPanel(url, { Origin: url, Cookie: `system_session=${token}` });
      const pushed: AgentResponse[] = [];
      client.onResponse((response) => pushed.push(response));
      const reply = await client.request(
        new ChatRequest(crypto.randomUUID(), "/system item minecraft:diamond"),
      );
      expect(reply.card?.op).toBe("SHOW");
      const ref = reply.card?.op === "SHOW" ? reply.card.ref : undefined;
      const button = reply.card?.op === "SHOW" ? reply.card.view.buttons[0] : undefined;
      expect(ref).toBeDefined();
      // a forged action on a real card, and an old page of it, are refused
      const forged = await client.request(
        new CardActionRequest(crypto.randomUUID(), ref as never, "system:shop_confirm", ["x"]),
      );
      expect(forged.result.failure?.code).toBe("INPUT_INVALID");
      const stale = await client.request(
        new CardActionRequest(
          crypto.randomUUID(),
          { id: ref?.id ?? "", version: (ref?.version ?? 0) + 1 },
          button?.action ?? "",
          [...(button?.args ?? [])],
        ),
      );
      expect(stale.result.failure?.code).toBe("INPUT_INVALID");
      const pressed = await client.request(
        new CardActionRequest(crypto.randomUUID(), ref as never, button?.action ?? "", [
          ...(button?.args ?? []),
        ]),
      );
      expect(pressed.result.isSuccess()).toBe(true);

      // per-session rate limit: a burst beyond 20 requests in 10 s is answered BUSY
      const burst = await Promise.all(
        Array.from({ length: 24 }, () => client.request(new ChatRequest(crypto.randomUUID(), "help"))),
      );
      expect(burst.some((answer) => answer.result.failure?.code === "BUSY")).toBe(true);

      // an admin's reset invalidates the binding at once
      await admin.say("/system reset Dee", (m) => /Dee/.test(m.text));
      await waitFor(() =>
        pushed.some((response) => response instanceof BindingResponse && response.state === "INVALIDATED")
          ? true
          : undefined,
      );
      const after = await fetch(`${url}/api/session`, { headers: { Cookie: `system_session=${token}` } });
      expect(await after.json()).toEqual({ bound: false });
    } finally {
      dee.quit();
    }
  }, 90_000);

  it("acts only while the player is online in the game", async () => {
    const eve = await joinPlayer(server.port, "Eve");
    const browser = await visit(url);
    const bound = await post(url, "/api/bind", { code: await codeOf(eve) }, browser.headers(url));
    const token = /system_session=([^;]+)/.exec(bound.headers.get("set-cookie") ?? "")?.[1] ?? "";
    const client = await openPanel(url, { Origin: url, Cookie: `system_session=${token}` });
    const uuid = uuidOf(server.system, "Eve");
    eve.quit();
    await waitFor(() =>
      server.system.host.players().some((player) => player.name === "Eve") ? undefined : true,
    );
    // the assistant's leave has run: it no longer counts Eve online
    await server.system.assistant.turnSettled(uuid);
    const reply = await client.request(new ChatRequest(crypto.randomUUID(), "checkin"));
    expect(reply.result.failure?.key).toBe("system.panel.offline");
  }, 60_000);
});
