import { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import { constants, deflateSync, inflateSync } from "node:zlib";
import { encryption, readVarInt, type StreamCipher, varIntBuffer } from "./minecraft-protocol.js";

/**
 * A frame as it crossed the wire (after the length prefix and decryption, before decompression) and the
 * compression threshold of the leg it came from: another leg with the same threshold can send these bytes as
 * they are, without compressing the packet again.
 */
export interface WireFrame {
  readonly bytes: Buffer;
  readonly threshold: number | undefined;
}

/**
 * What a FrameConnection reports: each frame read (an uncompressed packet: id and body) with its wire form, a
 * compressed frame that does not inflate (relayed as it came), and its end.
 */
interface FrameEvents {
  frame: [frame: Buffer, wire: WireFrame];
  undecodable: [wire: WireFrame];
  close: [];
}

/**
 * One TCP leg of a relayed player (client ↔ gateway or gateway ↔ backend) as Minecraft frames, through
 * minecraft-protocol's cipher and zlib compression, split into frames here; a frame relayed to a leg that compresses
 * alike keeps its wire bytes, so the relay never compresses a packet it only passes on. The
 * transforms are driven frame by frame (they emit synchronously), so a switch of compression or encryption
 * applies exactly from the next frame read or written, as the protocol requires.
 */
const ZERO = varIntBuffer(0);
const EMPTY = Buffer.alloc(0);
const TOO_LONG = "too long";

/**
 * The length prefix of the frame at `offset`: a VarInt of at most 3 bytes (frames are under 2 MiB), undefined
 * while it is incomplete. Read without exceptions: the end of every TCP chunk is an incomplete prefix.
 */
const frameLength = (
  bytes: Buffer,
  offset: number,
): { value: number; size: number } | undefined | typeof TOO_LONG => {
  let value = 0;
  for (let index = 0; index < 3; index++) {
    if (offset + index >= bytes.length) return undefined;
    const byte = bytes[offset + index] as number;
    value |= (byte & 0x7f) << (7 * index);
    if ((byte & 0x80) === 0) return { value, size: index + 1 };
  }
  return TOO_LONG;
};
/** As minecraft-protocol inflates: a frame cut short still gives what it holds. */
const INFLATE = { finishFlush: constants.Z_SYNC_FLUSH };

export class FrameConnection extends EventEmitter<FrameEvents> {
  readonly socket: Socket;
  /** The bytes of a frame not yet complete (after decryption). */
  #pending: Buffer = EMPTY;
  /** The compression threshold of both directions; undefined while the leg is uncompressed. */
  #threshold: number | undefined;
  #cipher: StreamCipher | undefined;
  #decipher: StreamCipher | undefined;
  #closed = false;
  /** The socket error that ended this leg, if one did (`ECONNREFUSED`, …). */
  error: Error | undefined;
  readonly #onData = (chunk: Buffer): void => {
    const plain = this.#decipher === undefined ? chunk : this.#decipher.update(chunk);
    const bytes = this.#pending.length === 0 ? plain : Buffer.concat([this.#pending, plain]);
    let offset = 0;
    while (!this.#closed) {
      const length = frameLength(bytes, offset);
      if (length === undefined) break;
      if (length === TOO_LONG) {
        // a frame the protocol cannot carry (a bad length) ends this leg; the player's session closes the other
        this.#fail(new Error("a frame's length prefix is longer than the protocol allows"));
        return;
      }
      const start = offset + length.size;
      if (bytes.length < start + length.value) break;
      offset = start + length.value;
      // handlers may switch compression or encryption here: the next frame is read as they say
      this.#received(bytes.subarray(start, offset));
    }
    this.#pending = offset === bytes.length ? EMPTY : Buffer.from(bytes.subarray(offset));
  };

  constructor(socket: Socket) {
    super();
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on("data", this.#onData);
    socket.on("error", (error) => {
      this.error ??= error;
      this.close();
    });
    socket.on("close", () => this.close());
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Writes one frame (packet id and body), compressed and encrypted as this leg currently is. */
  write(frame: Buffer): void {
    if (this.#closed) return;
    const threshold = this.#threshold;
    if (threshold === undefined) this.#send(frame);
    else if (frame.length < threshold) this.#send(Buffer.concat([ZERO, frame]));
    else this.#send(Buffer.concat([varIntBuffer(frame.length), deflateSync(frame)]));
  }

  /**
   * Relays a frame read on another leg: its wire bytes as they came when this leg compresses alike (no second
   * compression, bytes unchanged), else the frame written afresh. A frame that did not inflate goes on only
   * as it came.
   */
  forward(frame: Buffer | undefined, wire: WireFrame): void {
    if (this.#closed) return;
    if (wire.threshold === this.#threshold) this.#send(wire.bytes);
    else if (frame !== undefined) this.write(frame);
  }

  /**
   * Compresses frames from now on, both ways, at `threshold` bytes (the protocol's `set_compression`);
   * a negative threshold leaves the leg uncompressed. Call it right after the frame that announces it.
   */
  enableCompression(threshold: number): void {
    if (threshold < 0 || this.#threshold !== undefined) return;
    this.#threshold = threshold;
  }

  /** Encrypts and decrypts every byte from now on with the shared secret (AES-128-CFB8). */
  enableEncryption(secret: Buffer): void {
    this.#cipher = encryption.createCipher(secret);
    this.#decipher = encryption.createDecipher(secret);
  }

  /** Ends the connection once what was written is flushed; a second call does nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.socket.end();
    // a peer that never reads must not hold the socket open
    setTimeout(() => this.socket.destroy(), 5_000).unref();
    this.emit("close");
  }

  /** One frame off the wire: inflated when this leg compresses and the frame is compressed. */
  #received(bytes: Buffer): void {
    if (this.#closed) return;
    const wire: WireFrame = { bytes, threshold: this.#threshold };
    if (this.#threshold === undefined) {
      this.emit("frame", bytes, wire);
      return;
    }
    let frame: Buffer;
    try {
      const { value: length, size } = readVarInt(bytes, 0);
      frame = length === 0 ? bytes.subarray(size) : inflateSync(bytes.subarray(size), INFLATE);
    } catch {
      this.emit("undecodable", wire);
      return;
    }
    this.emit("frame", frame, wire);
  }

  /** Sends a frame's wire bytes: length-prefixed, then encrypted when the leg is. */
  #send(bytes: Buffer): void {
    if (this.#closed) return;
    const framed = Buffer.concat([varIntBuffer(bytes.length), bytes]);
    this.socket.write(this.#cipher === undefined ? framed : this.#cipher.update(framed));
  }

  #fail(error: Error): void {
    this.socket.destroy(error);
    this.close();
  }
}
