import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import mc from "minecraft-protocol";

/**
 * A scripted backend that speaks the real login protocol (minecraft-protocol's own server connection, no
 * gateway code) and checks what a proxy in front of it forwards, as Paper does:
 * - `velocity`: asks on `velocity:player_info` (with the version byte `requestVersion`, if set), checks the
 *   HMAC-SHA256 over the payload with its secret and reads version, address, UUID, name and properties;
 * - `bungeecord`/`bungeeguard`: splits the handshake's server address `host\0ip\0uuid\0properties`
 *   (`bungeeguard` also wants the `bungeeguard-token` property to be its secret);
 * - `none`: gives the name its offline UUID;
 * - `silent`: answers status pings, then never answers a login.
 * It can first send a login plugin request of its own (`probeChannel`, as Forge does) and records the answer.
 * A player it accepts gets `success` with the UUID and name it was told, and is left in configuration; a
 * check that fails ends the login with a `disconnect` naming it.
 */
export type ScriptedForwarding = "none" | "bungeecord" | "bungeeguard" | "velocity" | "silent";

export interface ScriptedBackendOptions {
  readonly forwarding: ScriptedForwarding;
  readonly version?: string;
  readonly secret?: string;
  /** The version byte of the `velocity:player_info` request; none is sent when unset. */
  readonly requestVersion?: number;
  /** A login plugin channel asked before anything else (a Forge-style handshake the client must answer). */
  readonly probeChannel?: string;
}

/** One property as the backend read it. */
export interface ForwardedProperty {
  readonly name: string;
  readonly value: string;
  readonly signature?: string;
}

/** What the backend learned of one login. */
export interface ScriptedLogin {
  /** The handshake's server address exactly as it arrived. */
  readonly serverHost: string;
  readonly loginName: string;
  /** The probe's answer: `understood` is whether the client sent data back. */
  probe?: { readonly understood: boolean; readonly data: string };
  /** From the velocity payload (after a valid HMAC) or the legacy address. */
  forwarded?: {
    readonly version?: number;
    readonly address: string;
    readonly uuid: string;
    readonly name: string;
    readonly properties: readonly ForwardedProperty[];
  };
  /** Why the backend refused the login, if it did. */
  refused?: string;
  /** The UUID and name the backend let the player in with. */
  accepted?: { readonly uuid: string; readonly name: string };
}

export interface ScriptedBackend {
  readonly port: number;
  readonly logins: ScriptedLogin[];
  close(): Promise<void>;
}

const VELOCITY_CHANNEL = "velocity:player_info";

export const startScriptedBackend = async (options: ScriptedBackendOptions): Promise<ScriptedBackend> => {
  const version = options.version ?? "1.21.4";
  const data = mc.Server as unknown as new (
    version: string,
  ) => mc.Server & {
    listen(port: number, host: string): void;
    socketServer: { address(): AddressInfo; close(callback: () => void): void };
  };
  const server = new data(version);
  const protocol = Number((await import("minecraft-data")).default(version)?.version.version);
  const logins: ScriptedLogin[] = [];
  server.on("connection", (client: mc.Client) => {
    client.on("error", () => {});
    client.once("set_protocol", (handshake: { serverHost: string; nextState: number }) => {
      if (handshake.nextState === 1) {
        client.state = mc.states.STATUS;
        client.on("ping_start", () =>
          client.write("server_info", {
            response: JSON.stringify({
              version: { name: version, protocol },
              players: { max: 5, online: 0 },
              description: { text: `Scripted ${options.forwarding} backend` },
            }),
          }),
        );
        client.on("ping", (ping: { time: bigint }) => client.write("ping", ping));
        return;
      }
      client.state = mc.states.LOGIN;
      client.once("login_start", (start: { username: string }) => {
        const login: ScriptedLogin = { serverHost: handshake.serverHost, loginName: start.username };
        logins.push(login);
        if (options.forwarding === "silent") return;
        const steps = new LoginScript(client, login, options);
        steps.begin();
      });
    });
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    port: server.socketServer.address().port,
    logins,
    close: () =>
      new Promise((resolve) => {
        for (const client of Object.values(
          (server as unknown as { clients: Record<string, mc.Client> }).clients,
        ))
          client.socket?.destroy();
        server.socketServer.close(() => resolve());
      }),
  };
};

/** The backend's side of one login after `login_start`. */
class LoginScript {
  #nextMessageId = 1;

  constructor(
    private readonly client: mc.Client,
    private readonly login: ScriptedLogin,
    private readonly options: ScriptedBackendOptions,
  ) {}

  begin(): void {
    if (this.options.probeChannel === undefined) {
      this.#forwarding();
      return;
    }
    this.#ask(this.options.probeChannel, Buffer.from("probe"), (data) => {
      this.login.probe = { understood: data !== undefined, data: data?.toString("utf8") ?? "" };
      this.#forwarding();
    });
  }

  #forwarding(): void {
    const { forwarding } = this.options;
    if (forwarding === "velocity") {
      const request =
        this.options.requestVersion === undefined ? Buffer.alloc(0) : Buffer.of(this.options.requestVersion);
      this.#ask(VELOCITY_CHANNEL, request, (data) => this.#velocity(data));
    } else if (forwarding === "bungeecord" || forwarding === "bungeeguard") this.#legacy(forwarding);
    else this.#accept(offlineUuid(this.login.loginName), this.login.loginName);
  }

  #velocity(data: Buffer | undefined): void {
    if (data === undefined || data.length < 32) {
      this.#refuse("no forwarding data");
      return;
    }
    const signature = data.subarray(0, 32);
    const payload = data.subarray(32);
    const expected = createHmac("sha256", this.options.secret ?? "")
      .update(payload)
      .digest();
    if (!timingSafeEqual(signature, expected)) {
      this.#refuse("invalid forwarding signature");
      return;
    }
    const reader = new PayloadReader(payload);
    const version = reader.varInt();
    const address = reader.string();
    const uuid = reader.uuid();
    const name = reader.string();
    const properties: ForwardedProperty[] = [];
    for (let count = reader.varInt(); count > 0; count--) {
      const propertyName = reader.string();
      const value = reader.string();
      properties.push(
        reader.boolean()
          ? { name: propertyName, value, signature: reader.string() }
          : { name: propertyName, value },
      );
    }
    this.login.forwarded = { version, address, uuid, name, properties };
    this.#accept(uuid, name);
  }

  #legacy(mode: "bungeecord" | "bungeeguard"): void {
    const parts = this.login.serverHost.split("\0");
    if (parts.length !== 3 && parts.length !== 4)
      this.#refuse("If you wish to use IP forwarding, please enable it in your BungeeCord config as well!");
    const [, address = "", undashed = ""] = parts;
    const properties = JSON.parse(parts[3] ?? "[]") as ForwardedProperty[];
    const uuid = undashed.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
    this.login.forwarded = { address, uuid, name: this.login.loginName, properties };
    if (mode === "bungeeguard") {
      const tokens = properties.filter((property) => property.name === "bungeeguard-token");
      if (tokens.length !== 1 || tokens[0]?.value !== this.options.secret)
        this.#refuse("Unable to authenticate - no or invalid bungeeguard token");
    }
    this.#accept(uuid, this.login.loginName);
  }

  #ask(channel: string, data: Buffer, answered: (data: Buffer | undefined) => void): void {
    const messageId = this.#nextMessageId++;
    const listener = (response: { messageId: number; data?: Buffer }): void => {
      if (response.messageId !== messageId) return;
      this.client.off("login_plugin_response", listener);
      answered(response.data);
    };
    this.client.on("login_plugin_response", listener);
    this.client.write("login_plugin_request", { messageId, channel, data });
  }

  #refuse(reason: string): void {
    this.login.refused = reason;
    this.client.write("disconnect", { reason: JSON.stringify({ text: reason }) });
    this.client.socket?.end();
  }

  #accept(uuid: string, name: string): void {
    this.login.accepted = { uuid, name };
    this.client.write("success", { uuid, username: name, properties: [], strictErrorHandling: false });
  }
}

/** Reads the protocol's types from a forwarding payload, as a backend does. */
class PayloadReader {
  #offset = 0;

  constructor(private readonly buffer: Buffer) {}

  varInt(): number {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = this.buffer[this.#offset++];
      if (byte === undefined) throw new Error("payload ends inside a VarInt");
      value |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
  }

  string(): string {
    const length = this.varInt();
    const text = this.buffer.toString("utf8", this.#offset, this.#offset + length);
    this.#offset += length;
    return text;
  }

  uuid(): string {
    const hex = this.buffer.toString("hex", this.#offset, this.#offset + 16);
    this.#offset += 16;
    return hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
  }

  boolean(): boolean {
    return this.buffer[this.#offset++] === 1;
  }
}

/** Java's `UUID.nameUUIDFromBytes("OfflinePlayer:" + name)`, written out here as a backend computes it. */
const offlineUuid = (name: string): string => {
  const bytes = createHash("md5").update(`OfflinePlayer:${name}`).digest();
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x30;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return bytes.toString("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
};
