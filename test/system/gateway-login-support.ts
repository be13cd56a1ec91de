// Logging raw clients in through a gateway whose gateway.json names forwarding and online mode.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import mc from "minecraft-protocol";
import { tempFolder } from "./gateway-support.js";

export const SECRET = "s3cret-forwarding-key";

/** A data directory whose gateway.json says `gateway` and whose `forwarding.secret` holds `secret`. */
export const gatewayDataDir = (gateway: Record<string, unknown>, secret = SECRET): string => {
  const dataDir = tempFolder("gateway-forwarding-");
  mkdirSync(join(dataDir, "config", "system"), { recursive: true });
  writeFileSync(join(dataDir, "config", "system", "gateway.json"), JSON.stringify(gateway));
  writeFileSync(join(dataDir, "forwarding.secret"), `${secret}\n`);
  return dataDir;
};

/** What a raw minecraft-protocol client saw of its login: the `success` it got, or the reason it was refused. */
export interface LoginOutcome {
  readonly success?: { readonly uuid: string; readonly username: string };
  readonly refused?: string;
}

/** Logs a raw 1.21.4 client in through `port` and resolves with its `success` or its disconnect reason. */
export const loginThrough = (
  port: number,
  username: string,
  options: Partial<mc.ClientOptions> = {},
): Promise<LoginOutcome> => {
  const client = mc.createClient({
    host: "127.0.0.1",
    port,
    username,
    version: "1.21.4",
    auth: "offline",
    hideErrors: true,
    ...options,
  });
  return new Promise((resolve) => {
    client.on("error", () => {});
    client.once("success", (packet: { uuid: string; username: string }) => {
      resolve({ success: { uuid: packet.uuid, username: packet.username } });
      client.end();
    });
    client.once("disconnect", (packet: { reason: string }) => resolve({ refused: packet.reason }));
    client.once("end", (reason: string) => resolve({ refused: reason }));
  });
};

/**
 * minecraft-protocol's client logging in with a session of `account` against the session server at `url`
 * (its own `join` call, then the encrypted login): an `auth` that sets the session as a launcher would.
 */
export const onlineClient = (
  account: { readonly accessToken: string; readonly id: string; readonly name: string },
  sessionServer: string,
): Partial<mc.ClientOptions> => ({
  sessionServer,
  auth: (client, options) => {
    const session = {
      accessToken: account.accessToken,
      selectedProfile: { id: account.id, name: account.name },
    };
    Object.assign(client, { username: account.name, session });
    Object.assign(options, { accessToken: account.accessToken, haveCredentials: true });
    (options as unknown as { connect(client: mc.Client): void }).connect(client);
  },
});
