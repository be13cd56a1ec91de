import { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import {
  compression,
  encryption,
  type FrameSplitter,
  framing,
  type ProtocolTransform,
  type StreamCipher,
} from "./minecraft-protocol.js";

/** What a FrameConnection reports: each frame read (an uncompressed packet: id and body), and its end. */
interface FrameEvents {
  frame: [frame: Buffer];
  close: [];
}

/**
 * One TCP leg of a relayed player (client ↔ gateway or gateway ↔ backend) as Minecraft frames, through
 * minecraft-protocol's transforms: AES-CFB8, the VarInt frame splitter/framer and zlib compression. The
 * transforms are driven frame by frame (they emit synchronously), so a switch of compression or encryption
 * applies exactly from the next frame read or written, as the protocol requires.
 */
export class FrameConnection extends EventEmitter<FrameEvents> {
  readonly socket: Socket;
  readonly #splitter: FrameSplitter;
  readonly #framer: ProtocolTransform;
  #compressor: ProtocolTransform | undefined;
  #decompressor: ProtocolTransform | undefined;
  #cipher: StreamCipher | undefined;
  #decipher: StreamCipher | undefined;
  #closed = false;
  /** The socket error that ended this leg, if one did (`ECONNREFUSED`, …). */
  error: Error | undefined;
  readonly #onData = (chunk: Buffer): void => {
    try {
      this.#splitter.write(this.#decipher === undefined ? chunk : this.#decipher.update(chunk));
    } catch (error) {
      // a frame the splitter cannot read (a bad length) ends this leg; the player's session closes the other
      this.#fail(error instanceof Error ? error : new Error(String(error)));
    }
  };

  constructor(socket: Socket) {
    super();
    this.socket = socket;
    socket.setNoDelay(true);
    this.#splitter = framing.createSplitter();
    this.#framer = framing.createFramer();
    this.#splitter.on("data", (frame: Buffer) => {
      if (this.#decompressor === undefined) this.#emitFrame(frame);
      else this.#decompressor.write(frame);
    });
    this.#framer.on("data", (bytes: Buffer) => {
      if (this.#closed) return;
      this.socket.write(this.#cipher === undefined ? bytes : this.#cipher.update(bytes));
    });
    for (const stream of [this.#splitter, this.#framer])
      stream.on("error", (error: Error) => this.#fail(error));
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
    if (this.#compressor === undefined) this.#framer.write(frame);
    else this.#compressor.write(frame);
  }

  /**
   * Compresses frames from now on, both ways, at `threshold` bytes (the protocol's `set_compression`);
   * a negative threshold leaves the leg uncompressed. Call it right after the frame that announces it.
   */
  enableCompression(threshold: number): void {
    if (threshold < 0 || this.#compressor !== undefined) return;
    const compressor = compression.createCompressor(threshold);
    const decompressor = compression.createDecompressor(threshold, true);
    compressor.on("data", (frame: Buffer) => this.#framer.write(frame));
    decompressor.on("data", (frame: Buffer) => this.#emitFrame(frame));
    for (const stream of [compressor, decompressor]) stream.on("error", (error: Error) => this.#fail(error));
    this.#compressor = compressor;
    this.#decompressor = decompressor;
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

  #emitFrame(frame: Buffer): void {
    if (!this.#closed) this.emit("frame", frame);
  }

  #fail(error: Error): void {
    this.socket.destroy(error);
    this.close();
  }
}
