import { createConnection, createServer, type Server, type Socket } from "node:net";

/** Default largest frame either side accepts (bytes); bigger length prefixes close the connection at once. */
export const DEFAULT_MAX_FRAME_BYTES = 1_048_576;

/** A bidirectional stream of whole binary frames (one message each), whatever carries them. */
export interface FrameChannel {
  send(frame: Uint8Array): void;
  /** Listeners run in order; one that throws closes the channel with that error instead of crashing the process. */
  onFrame(listener: (frame: Uint8Array) => void): void;
  onClose(listener: (error?: Error) => void): void;
  close(error?: Error): void;
  readonly closed: boolean;
}

/** The shared listener bookkeeping of both channel kinds. */
abstract class BaseChannel implements FrameChannel {
  readonly #frameListeners: ((frame: Uint8Array) => void)[] = [];
  readonly #closeListeners: ((error?: Error) => void)[] = [];
  #closed = false;

  abstract send(frame: Uint8Array): void;
  protected abstract shutdown(): void;

  get closed(): boolean {
    return this.#closed;
  }

  onFrame(listener: (frame: Uint8Array) => void): void {
    this.#frameListeners.push(listener);
  }

  onClose(listener: (error?: Error) => void): void {
    if (this.#closed) listener();
    else this.#closeListeners.push(listener);
  }

  protected emitFrame(frame: Uint8Array): void {
    if (this.#closed) return;
    try {
      // A copy: a listener added while handling this frame (after a handshake) starts with the next one.
      for (const listener of [...this.#frameListeners]) listener(frame);
    } catch (error) {
      this.close(error instanceof Error ? error : new Error(String(error)));
    }
  }

  close(error?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    this.shutdown();
    for (const listener of this.#closeListeners.splice(0)) {
      try {
        listener(error);
      } catch {
        // A close listener cannot make closing fail.
      }
    }
  }
}

/**
 * Frames over a TCP socket: a 4-byte big-endian length, then that many bytes. A length above `maxFrameBytes`
 * closes the connection before anything is allocated for it; buffered input never exceeds one frame.
 */
export class SocketFrameChannel extends BaseChannel {
  #pending: Buffer = Buffer.alloc(0);
  #expected: number | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly maxFrameBytes = DEFAULT_MAX_FRAME_BYTES,
  ) {
    super();
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.#receive(chunk));
    socket.on("error", (error) => this.close(error));
    socket.on("close", () => this.close());
  }

  send(frame: Uint8Array): void {
    if (this.closed) throw new Error("frame channel is closed");
    if (frame.length > this.maxFrameBytes)
      throw new RangeError(`frame of ${frame.length} bytes exceeds ${this.maxFrameBytes}`);
    const header = Buffer.allocUnsafe(4);
    header.writeUInt32BE(frame.length);
    this.socket.write(Buffer.concat([header, frame]));
  }

  protected shutdown(): void {
    this.socket.removeAllListeners("data");
    this.socket.on("error", () => {}); // late errors after close are expected
    // end() flushes a last frame (a refusal) before FIN; destroy() follows in case the peer never closes.
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 1000).unref();
  }

  #receive(chunk: Buffer): void {
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    while (!this.closed) {
      if (this.#expected === undefined) {
        if (this.#pending.length < 4) return;
        const length = this.#pending.readUInt32BE(0);
        if (length > this.maxFrameBytes) {
          this.close(new RangeError(`incoming frame of ${length} bytes exceeds ${this.maxFrameBytes}`));
          return;
        }
        this.#expected = length;
        this.#pending = this.#pending.subarray(4);
      }
      if (this.#pending.length < this.#expected) return;
      const frame = new Uint8Array(this.#pending.subarray(0, this.#expected));
      this.#pending = this.#pending.subarray(this.#expected);
      this.#expected = undefined;
      this.emitFrame(frame);
    }
  }
}

/** The parts of a `ws` WebSocket this adapter uses (so util does not depend on the ws types). */
export interface WebSocketLike {
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
  on(event: "message", listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): unknown;
  on(event: "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** Frames over a WebSocket: each binary message is one frame; text messages close the channel. */
export class WebSocketFrameChannel extends BaseChannel {
  constructor(
    private readonly socket: WebSocketLike,
    private readonly maxFrameBytes = DEFAULT_MAX_FRAME_BYTES,
  ) {
    super();
    socket.on("message", (data, isBinary) => {
      if (!isBinary) return this.close(new Error("text WebSocket messages are not frames"));
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      if (bytes.length > this.maxFrameBytes) return this.close(new RangeError("incoming frame too large"));
      this.emitFrame(new Uint8Array(bytes));
    });
    socket.on("error", (error) => this.close(error));
    socket.on("close", () => this.close());
  }

  send(frame: Uint8Array): void {
    if (this.closed) throw new Error("frame channel is closed");
    this.socket.send(frame);
  }

  protected shutdown(): void {
    this.socket.close();
  }
}

/** A listening frame server; `close` stops accepting and closes every open channel. */
export interface FrameServer {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Listens for TCP frame connections (default 127.0.0.1, a free port when `port` is 0). */
export const listenFrames = async (
  options: { readonly host?: string; readonly port?: number; readonly maxFrameBytes?: number },
  onChannel: (channel: FrameChannel) => void,
): Promise<FrameServer> => {
  const host = options.host ?? "127.0.0.1";
  const channels = new Set<FrameChannel>();
  const server: Server = createServer((socket) => {
    const channel = new SocketFrameChannel(socket, options.maxFrameBytes);
    channels.add(channel);
    channel.onClose(() => channels.delete(channel));
    try {
      onChannel(channel);
    } catch (error) {
      channel.close(error instanceof Error ? error : new Error(String(error)));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : (options.port ?? 0);
  return {
    host,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const channel of channels) channel.close();
        server.close(() => resolve());
      }),
  };
};

/** Opens a TCP frame connection. */
export const connectFrames = (options: {
  readonly host?: string;
  readonly port: number;
  readonly maxFrameBytes?: number;
}): Promise<SocketFrameChannel> =>
  new Promise((resolve, reject) => {
    const socket = createConnection({ host: options.host ?? "127.0.0.1", port: options.port });
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.off("error", reject);
      resolve(new SocketFrameChannel(socket, options.maxFrameBytes));
    });
  });
