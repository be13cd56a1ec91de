import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted reply of the fake model; replies are consumed first in, first out. */
export interface ScriptedReply {
  /** The assistant message content; omitted → `content: null`. */
  text?: string;
  /** Sent as `reasoning_content` beside the content (clients must drop it). */
  reasoning?: string;
  /** Sent as the OpenAI `usage` object; omitted → the reply has no `usage` at all. */
  usage?: { promptTokens: number; completionTokens: number };
  /** Waits this long before answering; a client that gives up meanwhile is recorded as `closedEarly`. */
  delayMillis?: number;
  /** Answers only once this settles (a test releases it after changing state while the call waits). */
  until?: Promise<unknown>;
  /** Answers with this HTTP error status and an OpenAI-style error body. */
  status?: number;
  /** Sends this raw body instead of a chat completion (with `status` or 200). */
  body?: string;
}

/** A hold a test releases by hand: `until` goes into a ScriptedReply, `release()` lets the reply go. */
export const gate = (): { readonly until: Promise<void>; release(): void } => {
  let open = (): void => {};
  const until = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { until, release: () => open() };
};

/** One request the server received, as the test inspects it. */
export interface RecordedRequest {
  body: Record<string, unknown>;
  /** The content of the system message ("" when absent). */
  system: string;
  /** JSON.parse of the user message, or the raw string if it is not JSON. */
  user: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** The client closed the connection before the reply was sent. */
  closedEarly: boolean;
}

/**
 * A real OpenAI-compatible chat-completions server on 127.0.0.1 that answers from a script: the test double
 * for every model-facing test. With an empty script it answers 500, so an unexpected call fails loudly.
 */
export class ScriptedModelServer {
  readonly requests: RecordedRequest[] = [];
  readonly #replies: ScriptedReply[] = [];
  readonly #waiters: { count: number; resolve: () => void }[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  #inFlight = 0;
  #maxInFlight = 0;

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<ScriptedModelServer> {
    let instance: ScriptedModelServer | undefined;
    const server = createServer((request, response) => {
      instance?.handle(request, response).catch(() => response.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    instance = new ScriptedModelServer(server, `http://127.0.0.1:${port}/v1`);
    return instance;
  }

  /** Appends replies to the script. */
  script(...replies: ScriptedReply[]): void {
    this.#replies.push(...replies);
  }

  /** How many replies are still unused. */
  get pending(): number {
    return this.#replies.length;
  }

  /** Requests being handled right now (received, reply not yet finished or abandoned). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** The highest number of requests handled at the same time since start. */
  get maxInFlight(): number {
    return this.#maxInFlight;
  }

  /** Resolves once at least `count` requests have been received. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    if (request.method !== "POST" || !(request.url ?? "").endsWith("/chat/completions")) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "not found", type: "not_found" } }));
      return;
    }
    const recorded = record(raw, request.headers);
    this.#inFlight++;
    this.#maxInFlight = Math.max(this.#maxInFlight, this.#inFlight);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      this.#inFlight--;
    };
    response.on("close", () => {
      if (!response.writableEnded) recorded.closedEarly = true;
      finish();
    });
    this.requests.push(recorded);
    this.#notify();
    const reply = this.#replies.shift();
    if (reply === undefined) {
      send(response, 500, { error: { message: "script is empty", type: "server_error" } });
      return;
    }
    if (reply.delayMillis !== undefined && reply.delayMillis > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          resolve();
        }, reply.delayMillis);
        this.#timers.add(timer);
        response.on("close", () => {
          clearTimeout(timer);
          this.#timers.delete(timer);
          resolve();
        });
      });
      if (response.destroyed || response.writableEnded) return;
    }
    if (reply.until !== undefined) {
      const closed = new Promise<void>((resolve) => response.on("close", () => resolve()));
      await Promise.race([reply.until.catch(() => {}), closed]);
      if (response.destroyed || response.writableEnded) return;
    }
    if (reply.body !== undefined) {
      response.writeHead(reply.status ?? 200, { "content-type": "application/json" });
      response.end(reply.body);
      return;
    }
    if (reply.status !== undefined) {
      send(response, reply.status, {
        error: { message: `scripted status ${reply.status}`, type: "scripted" },
      });
      return;
    }
    send(response, 200, completion(reply, recorded.body.model));
  }

  #notify(): void {
    for (let index = this.#waiters.length - 1; index >= 0; index--) {
      const waiter = this.#waiters[index];
      if (waiter !== undefined && this.requests.length >= waiter.count) {
        this.#waiters.splice(index, 1);
        waiter.resolve();
      }
    }
  }
}

const record = (raw: string, headers: IncomingMessage["headers"]): RecordedRequest => {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } catch {
    body = { raw };
  }
  const messages = Array.isArray(body.messages)
    ? (body.messages as { role?: unknown; content?: unknown }[])
    : [];
  const contentOf = (role: string): string | undefined => {
    const content = messages.find((message) => message.role === role)?.content;
    return typeof content === "string" ? content : undefined;
  };
  const userText = contentOf("user");
  let user: unknown = userText;
  if (userText !== undefined) {
    try {
      user = JSON.parse(userText);
    } catch {
      user = userText;
    }
  }
  return { body, system: contentOf("system") ?? "", user, headers: { ...headers }, closedEarly: false };
};

const completion = (reply: ScriptedReply, model: unknown): Record<string, unknown> => {
  const message: Record<string, unknown> = { role: "assistant", content: reply.text ?? null };
  if (reply.reasoning !== undefined) message.reasoning_content = reply.reasoning;
  const result: Record<string, unknown> = {
    id: `chatcmpl-scripted-${Math.random().toString(36).slice(2)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: typeof model === "string" ? model : "scripted",
    choices: [{ index: 0, message, finish_reason: "stop", logprobs: null }],
  };
  if (reply.usage !== undefined)
    result.usage = {
      prompt_tokens: reply.usage.promptTokens,
      completion_tokens: reply.usage.completionTokens,
      total_tokens: reply.usage.promptTokens + reply.usage.completionTokens,
    };
  return result;
};

const send = (response: ServerResponse, status: number, body: unknown): void => {
  if (response.destroyed) return;
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
};
