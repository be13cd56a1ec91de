/**
 * The Source RCON packet as Minecraft speaks it: `int32le length` (of the rest), `int32le id`, `int32le type`,
 * a UTF-8 body and two NUL bytes. Vanilla's `RconClient` reads each request with one `read(buf, 0, 1460)` and
 * closes the connection unless that read holds exactly one whole packet, so a request never exceeds 1 460 bytes.
 */

/** Packet types: a request runs a command (2) or logs in (3); the server answers 0, or 2 for a login. */
export const RCON_TYPE = { response: 0, command: 2, login: 3, loginResponse: 2 } as const;

/**
 * The type of the end-marker request. Vanilla answers any type it does not know with `Unknown request <hex>`
 * under the request's id, after every fragment of the reply before it; that answer marks the end of the reply.
 */
export const END_MARKER_TYPE = 100;

/** The id vanilla answers a refused login with. */
export const LOGIN_REFUSED_ID = -1;

/** Vanilla's single read per request. */
export const MAX_REQUEST_BYTES = 1460;

/** Length, id, type and the two NULs around a body. */
const OVERHEAD = 14;

/** The longest body (in UTF-8 bytes) that fits vanilla's single read: 1 446. */
export const MAX_BODY_BYTES = MAX_REQUEST_BYTES - OVERHEAD;

/** Replies come in fragments of at most 4 096 UTF-16 units (up to 3 bytes each); anything far larger is garbage. */
const MAX_PACKET_LENGTH = 64 * 1024;

/** One RCON packet. */
export interface RconPacket {
  readonly id: number;
  readonly type: number;
  readonly body: string;
}

/** Encodes a packet; the caller keeps the body under MAX_BODY_BYTES for requests. */
export const encodePacket = (packet: RconPacket): Buffer => {
  const body = Buffer.from(packet.body, "utf8");
  const buffer = Buffer.alloc(OVERHEAD + body.length);
  buffer.writeInt32LE(buffer.length - 4, 0);
  buffer.writeInt32LE(packet.id, 4);
  buffer.writeInt32LE(packet.type, 8);
  body.copy(buffer, 12);
  return buffer;
};

/** The UTF-8 length of a body as it would be sent. */
export const bodyBytes = (body: string): number => Buffer.byteLength(body, "utf8");

/**
 * Cuts a byte stream into packets, whatever the TCP chunking: a packet split over several chunks waits for the
 * rest, several packets in one chunk come out one by one. A length outside the protocol's bounds is an error.
 */
export class PacketReader {
  #pending: Buffer = Buffer.alloc(0);

  /** Adds bytes; returns the packets now complete, or an error text when the stream is not RCON. */
  push(chunk: Buffer): { readonly packets: RconPacket[]; readonly error?: string } {
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const packets: RconPacket[] = [];
    while (this.#pending.length >= 4) {
      const length = this.#pending.readInt32LE(0);
      if (length < 10 || length > MAX_PACKET_LENGTH)
        return { packets, error: `a packet length of ${length} bytes is not RCON` };
      if (this.#pending.length < length + 4) break;
      packets.push(decodeBody(this.#pending.subarray(4, length + 4)));
      this.#pending = this.#pending.subarray(length + 4);
    }
    return { packets };
  }
}

/** Id, type and body of one packet without its length; trailing NULs are not part of the body. */
const decodeBody = (bytes: Buffer): RconPacket => {
  let end = bytes.length;
  while (end > 8 && bytes[end - 1] === 0) end--;
  return { id: bytes.readInt32LE(0), type: bytes.readInt32LE(4), body: bytes.toString("utf8", 8, end) };
};
