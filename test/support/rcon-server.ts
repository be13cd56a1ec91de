import { createServer, type Server, type Socket } from "node:net";
import {
  encodePacket,
  LOGIN_REFUSED_ID,
  MAX_REQUEST_BYTES,
  RCON_TYPE,
  type RconPacket,
} from "../../src/host/gateway/rcon/rcon-packet.js";

/** How a reply's bytes leave the server. */
export type ReplyWrites =
  /** One write per fragment, as vanilla does. */
  | "fragments"
  /** Every fragment of a reply in one write (the client receives them in one chunk). */
  | "coalesced"
  /** A few bytes per write, with a pause between writes (fragments cut anywhere, headers included). */
  | "split";

/** What a command handler may do to the connection it answers on. */
export interface RconServerConnection {
  /** Closes the connection now (no reply goes out). */
  drop(): void;
}

export interface RconServerOptions {
  readonly password: string;
  /** 0 or unset: any free port. */
  readonly port?: number;
  /** The reply text of one command; it may wait. Thrown errors close the connection. */
  readonly handle: (command: string, connection: RconServerConnection) => string | Promise<string>;
  /** Close the connection when one read is not exactly one packet of at most 1 460 bytes, as vanilla does. */
  readonly strictReads?: boolean;
  /** UTF-16 units per reply fragment (vanilla: 4 096). */
  readonly fragmentUnits?: number;
  readonly writes?: ReplyWrites;
}

/** A running RCON TCP server and what it saw. */
export interface RconServer {
  readonly port: number;
  /** Every request packet read, in order. */
  readonly received: RconPacket[];
  /** Connections accepted so far. */
  connections(): number;
  /** Connections closed because a read held more or less than one packet. */
  refusedReads(): number;
  close(): Promise<void>;
}

/**
 * The protocol side of a Minecraft RCON server, written after vanilla's `RconClient`: a login (type 3) answered
 * with type 2 and the request id (or -1), commands (type 2) answered with type 0 in fragments of 4 096 UTF-16
 * units and no end marker, any other type answered `Unknown request <hex>`, one request handled at a time.
 */
export const startRconServer = async (options: RconServerOptions): Promise<RconServer> => {
  const received: RconPacket[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let refusedReads = 0;
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let loggedIn = false;
    let chain: Promise<void> = Promise.resolve();
    let pending = Buffer.alloc(0);
    const connection: RconServerConnection = { drop: () => socket.destroy() };
    const send = async (packets: readonly RconPacket[]): Promise<void> => {
      const bytes = packets.map(encodePacket);
      if (options.writes === "coalesced") socket.write(Buffer.concat(bytes));
      else if (options.writes === "split") {
        const all = Buffer.concat(bytes);
        for (let offset = 0; offset < all.length; offset += 7) {
          if (socket.destroyed) return;
          socket.write(all.subarray(offset, offset + 7));
          await new Promise((resolve) => setImmediate(resolve));
        }
      } else for (const packet of bytes) socket.write(packet);
    };
    const answer = async (packet: RconPacket): Promise<void> => {
      received.push(packet);
      if (packet.type === RCON_TYPE.login) {
        loggedIn = packet.body !== "" && packet.body === options.password;
        await send([
          { id: loggedIn ? packet.id : LOGIN_REFUSED_ID, type: RCON_TYPE.loginResponse, body: "" },
        ]);
      } else if (packet.type === RCON_TYPE.command) {
        if (!loggedIn) {
          await send([{ id: LOGIN_REFUSED_ID, type: RCON_TYPE.loginResponse, body: "" }]);
          return;
        }
        const reply = await options.handle(packet.body, connection);
        if (socket.destroyed) return;
        await send(
          fragments(reply, options.fragmentUnits ?? 4096).map((body) => ({ ...packet, type: 0, body })),
        );
      } else
        await send([
          { id: packet.id, type: RCON_TYPE.response, body: `Unknown request ${packet.type.toString(16)}` },
        ]);
    };
    socket.on("data", (chunk: Buffer) => {
      if (options.strictReads === true) {
        // vanilla: read(buf, 0, 1460) must return exactly one packet (length == bytesRead - 4)
        if (
          chunk.length < 10 ||
          chunk.length > MAX_REQUEST_BYTES ||
          chunk.readInt32LE(0) !== chunk.length - 4
        ) {
          refusedReads++;
          socket.destroy();
          return;
        }
      }
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0) + 4) {
        const length = pending.readInt32LE(0);
        const bytes = pending.subarray(4, length + 4);
        pending = pending.subarray(length + 4);
        const nul = bytes.indexOf(0, 8);
        const packet: RconPacket = {
          id: bytes.readInt32LE(0),
          type: bytes.readInt32LE(4),
          body: bytes.toString("utf8", 8, nul < 0 ? bytes.length : nul),
        };
        chain = chain
          .then(() => answer(packet))
          .catch(() => {
            socket.destroy();
          });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address !== null ? address.port : 0,
    received,
    connections: () => connections,
    refusedReads: () => refusedReads,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};

/** Vanilla's split: `substring(0, 4096)` in UTF-16 units until nothing is left; an empty reply is one fragment. */
export const fragments = (reply: string, units: number): string[] => {
  const parts: string[] = [];
  let rest = reply;
  do {
    parts.push(rest.slice(0, units));
    rest = rest.slice(units);
  } while (rest.length > 0);
  return parts;
};
