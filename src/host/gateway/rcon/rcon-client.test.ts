import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  type RconServer,
  type RconServerOptions,
  startRconServer,
} from "../../../../test/support/rcon-server.js";
import { MemoryLogger } from "../../../util/logger.js";
import { RconClient, type RconClientOptions } from "./rcon-client.js";
import { RconError } from "./rcon-error.js";
import { END_MARKER_TYPE, encodePacket, PacketReader, RCON_TYPE } from "./rcon-packet.js";

const PASSWORD = "hunter2";
const servers: RconServer[] = [];
const clients: RconClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const server = async (options: Partial<RconServerOptions> = {}): Promise<RconServer> => {
  const started = await startRconServer({
    password: PASSWORD,
    strictReads: true,
    handle: (command) => `ran ${command}`,
    ...options,
  });
  servers.push(started);
  return started;
};

const client = (port: number, options: Partial<RconClientOptions> = {}): RconClient => {
  const made = new RconClient({
    host: "127.0.0.1",
    port,
    password: PASSWORD,
    logger: new MemoryLogger(),
    backoff: { initialMillis: 10, maxMillis: 50 },
    ...options,
  });
  clients.push(made);
  return made;
};

const failure = async (promise: Promise<unknown>): Promise<RconError> => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof RconError)) throw new Error(`expected an RconError, got ${String(error)}`);
  return error;
};

const until = async (check: () => boolean): Promise<void> => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
};

const longReply = (length: number): string =>
  Array.from({ length }, (_, index) => (index % 97 === 0 ? "é" : index % 89 === 0 ? "物" : "x")).join("");

describe("RconClient", () => {
  it("logs in and returns a command's reply", async () => {
    const backend = await server();
    expect(await client(backend.port).command("minecraft:list")).toBe("ran minecraft:list");
    expect(backend.received[0]).toMatchObject({ type: RCON_TYPE.login, body: PASSWORD });
  });

  for (const writes of ["fragments", "coalesced", "split"] as const)
    it(`reassembles a reply cut into 4 096-unit fragments (${writes} writes)`, async () => {
      const replies = new Map([
        ["long", longReply(10_000)],
        ["exact", longReply(8192)],
        ["empty", ""],
        ["short", "Saved the game"],
      ]);
      const backend = await server({ writes, handle: (command) => replies.get(command) ?? "?" });
      const rcon = client(backend.port);
      for (const [command, reply] of replies) expect(await rcon.command(command)).toBe(reply);
      expect(backend.refusedReads()).toBe(0);
    });

  it("never puts two requests in one read: concurrent commands go one after the other, each with its end marker", async () => {
    const backend = await server({ handle: (command) => longReply(5000) + command });
    const rcon = client(backend.port);
    const commands = Array.from({ length: 20 }, (_, index) => `command ${index}`);
    const replies = await Promise.all(commands.map((command) => rcon.command(command)));
    expect(replies).toEqual(commands.map((command) => longReply(5000) + command));
    expect(backend.refusedReads()).toBe(0);
    expect(backend.connections()).toBe(1);
    const types = backend.received.slice(1).map((packet) => packet.type);
    expect(types).toEqual(commands.flatMap(() => [RCON_TYPE.command, END_MARKER_TYPE]));
  });

  it("the strict test server closes a connection whose read holds two requests, as vanilla does", async () => {
    const backend = await server();
    const socket = connect({ host: "127.0.0.1", port: backend.port });
    await new Promise((resolve) => socket.once("connect", resolve));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.write(
      Buffer.concat([
        encodePacket({ id: 1, type: RCON_TYPE.login, body: PASSWORD }),
        encodePacket({ id: 2, type: RCON_TYPE.command, body: "list" }),
      ]),
    );
    await closed;
    expect(backend.refusedReads()).toBe(1);
  });

  it("sends a command of 1 446 bytes and refuses one byte more without sending it", async () => {
    const backend = await server({ handle: (command) => `${Buffer.byteLength(command)}` });
    const rcon = client(backend.port);
    expect(await rcon.command("é".repeat(723))).toBe("1446");
    const refused = await failure(rcon.command(`${"é".repeat(723)}x`));
    expect(refused).toMatchObject({ kind: "command_rejected", sent: false });
    expect(refused.message).toContain("1447 bytes");
    expect(backend.received.filter((packet) => packet.type === RCON_TYPE.command)).toHaveLength(1);
    expect(backend.refusedReads()).toBe(0);
  });

  it("refuses a command holding a NUL or nothing", async () => {
    const backend = await server();
    const rcon = client(backend.port);
    expect(await failure(rcon.command("say a\0minecraft:op x"))).toMatchObject({ kind: "command_rejected" });
    expect(await failure(rcon.command("  "))).toMatchObject({ kind: "command_rejected" });
    expect(backend.connections()).toBe(0);
  });

  it("a refused password is a clear error, and nothing was sent", async () => {
    const backend = await server();
    const error = await failure(client(backend.port, { password: "wrong" }).command("minecraft:list"));
    expect(error).toMatchObject({ kind: "login_refused", sent: false, isRetryable: false });
    expect(error.message).toContain("refused the password");
    expect(backend.received.filter((packet) => packet.type === RCON_TYPE.command)).toHaveLength(0);
  });

  it("a reply that never comes times out as sent; the next command runs on a new connection", async () => {
    const backend = await server({
      handle: (command) => (command === "hang" ? new Promise<string>(() => {}) : `ran ${command}`),
    });
    const rcon = client(backend.port);
    expect(await failure(rcon.command("hang", { timeoutMillis: 200 }))).toMatchObject({
      kind: "timeout",
      sent: true,
      command: "hang",
    });
    expect(await rcon.command("list")).toBe("ran list");
    expect(backend.connections()).toBe(2);
    expect(rcon.logins).toBe(2);
  });

  it("a slow reply within the deadline is still whole", async () => {
    const backend = await server({
      handle: async (command) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return longReply(9000) + command;
      },
      writes: "split",
    });
    expect(await client(backend.port).command("slow")).toBe(`${longReply(9000)}slow`);
  });

  it("a connection dropped while a command is answered fails it as sent; the next command reconnects", async () => {
    const backend = await server({
      handle: (command, connection) => {
        if (command === "drop") connection.drop();
        return `ran ${command}`;
      },
    });
    const rcon = client(backend.port);
    expect(await failure(rcon.command("drop"))).toMatchObject({ kind: "connection_lost", sent: true });
    expect(await rcon.command("list")).toBe("ran list");
    expect(backend.connections()).toBe(2);
  });

  it("a backend that is away makes commands unavailable (not sent); once it is back the client reconnects", async () => {
    const first = await server();
    const port = first.port;
    const logger = new MemoryLogger();
    const rcon = client(port, { logger });
    expect(await rcon.command("one")).toBe("ran one");
    await first.close();
    await until(() => !rcon.connected);
    const away = await failure(rcon.command("two", { timeoutMillis: 300 }));
    expect(away).toMatchObject({ kind: "unavailable", sent: false, isRetryable: true });
    expect(logger.has(`RCON at 127.0.0.1:${port} is unavailable`)).toBe(true);
    await server({ port });
    expect(await rcon.command("three")).toBe("ran three");
    expect(logger.has("connected to 127.0.0.1")).toBe(true);
  });

  it("close fails the commands still waiting", async () => {
    const backend = await server({ handle: () => new Promise<string>(() => {}) });
    const rcon = client(backend.port);
    const first = failure(rcon.command("hang"));
    const second = failure(rcon.command("after"));
    await until(() => backend.received.some((packet) => packet.body === "hang"));
    await rcon.close();
    expect((await first).kind).toBe("closed");
    expect(await second).toMatchObject({ kind: "closed", sent: false });
  });
});

describe("PacketReader", () => {
  it("refuses a length no RCON packet has", () => {
    const bytes = Buffer.alloc(12);
    bytes.writeInt32LE(3, 0);
    expect(new PacketReader().push(bytes).error).toContain("not RCON");
  });
});
