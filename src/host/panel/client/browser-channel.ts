/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { FrameChannel } from "../../../util/frame-transport.js";

/** The largest incoming frame (bytes), as `DEFAULT_MAX_FRAME_BYTES` (not imported: that module needs node:net). */
const MAX_FRAME_BYTES = 1_048_576;

/** Frames over the browser's WebSocket: one binary message is one frame; a text message closes the channel. */
export class BrowserFrameChannel implements FrameChannel {
  readonly #frameListeners: ((frame: Uint8Array) => void)[] = [];
  readonly #closeListeners: ((error?: Error) => void)[] = [];
  #closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly maxFrameBytes = MAX_FRAME_BYTES,
  ) {
    socket.binaryType = "arraybuffer";
    socket.addEventListener("message", (event: MessageEvent<unknown>) => {
      const data = event.data;
      if (!(data instanceof ArrayBuffer))
        return this.close(new Error("text WebSocket messages are not frames"));
      if (data.byteLength > this.maxFrameBytes) return this.close(new RangeError("incoming frame too large"));
      this.#emitFrame(new Uint8Array(data));
    });
    socket.addEventListener("error", () => this.close(new Error("WebSocket error")));
    socket.addEventListener("close", (event) =>
      this.close(event.wasClean ? undefined : new Error(`WebSocket closed (${event.code})`)),
    );
    if (socket.readyState === WebSocket.CLOSING || socket.readyState === WebSocket.CLOSED) this.close();
  }

  get closed(): boolean {
    return this.#closed;
  }

  send(frame: Uint8Array): void {
    if (this.#closed || this.socket.readyState !== WebSocket.OPEN) throw new Error("frame channel is closed");
    this.socket.send(frame);
  }

  onFrame(listener: (frame: Uint8Array) => void): void {
    this.#frameListeners.push(listener);
  }

  onClose(listener: (error?: Error) => void): void {
    if (this.#closed) listener();
    else this.#closeListeners.push(listener);
  }

  close(error?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.socket.readyState === WebSocket.CONNECTING || this.socket.readyState === WebSocket.OPEN)
      this.socket.close(1000);
    for (const listener of this.#closeListeners.splice(0)) {
      try {
        listener(error);
      } catch {
        // A close listener cannot make closing fail.
      }
    }
  }

  #emitFrame(frame: Uint8Array): void {
    if (this.#closed) return;
    try {
      // A copy: a listener added while handling this frame (after the handshake) starts with the next one.
      for (const listener of [...this.#frameListeners]) listener(frame);
    } catch (error) {
      this.close(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** Opens a WebSocket; resolves with its channel once open, rejects when it fails or closes before that. */
export const connectBrowserChannel = (url: string): Promise<FrameChannel> =>
  new Promise((resolve, reject) => {
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    socket.binaryType = "arraybuffer";
    const controller = new AbortController();
    const fail = (event: Event): void => {
      controller.abort();
      const code = event instanceof CloseEvent ? ` (${event.code})` : "";
      reject(new Error(`WebSocket connection to ${url} failed${code}`));
    };
    socket.addEventListener("error", fail, { signal: controller.signal });
    socket.addEventListener("close", fail, { signal: controller.signal });
    socket.addEventListener(
      "open",
      () => {
        controller.abort();
        resolve(new BrowserFrameChannel(socket));
      },
      { signal: controller.signal },
    );
  });

// ---- The panel's JSON API (same origin; the session cookie is httpOnly, the CSRF cookie is readable) --------------

const csrfToken = (): string => {
  const cookie = document.cookie.split("; ").find((entry) => entry.startsWith("system_csrf="));
  return cookie === undefined ? "" : decodeURIComponent(cookie.slice("system_csrf=".length));
};

/** A response's JSON object; anything else (an HTML error page, a bad body) reads as `{}`. */
export const readJson = async (response: Response): Promise<Record<string, unknown>> => {
  try {
    const body: unknown = await response.json();
    return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** `GET /api/session`: `{bound: false}` or `{bound: true, player, locale}`; also sets the CSRF cookie. */
export const getSession = async (): Promise<Record<string, unknown>> =>
  readJson(await fetch("/api/session", { headers: { Accept: "application/json" } }));

/** POSTs JSON with the `X-System-CSRF` header the server checks (fetching the session first if no cookie yet). */
export const postJson = async (path: string, body: unknown): Promise<Response> => {
  if (csrfToken() === "") await getSession();
  return fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-System-CSRF": csrfToken() },
    body: JSON.stringify(body),
  });
};
