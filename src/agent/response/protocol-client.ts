import type { FrameChannel } from "../../util/frame-transport.js";
import { encodeToBytes, type StreamCodec } from "../../util/stream-codec.js";
import { ClientCards } from "../card/client-cards.js";
import { AgentRequest, type CorrelatedRequest } from "../request/agent-request.js";
import { type RequestTypeRegistry, SystemRequestTypes } from "../request/system-request-types.js";
import type { Text } from "../text.js";
import { AgentResponse } from "./agent-response.js";
import { NoticeResponse } from "./notice-response.js";
import { decodeWelcome, encodeHello } from "./protocol-handshake.js";
import { PROTOCOL_VERSION } from "./protocol-version.js";
import { ReplyResponse } from "./reply-response.js";
import type { RegistryTables } from "./state-response.js";
import { type ResponseTypeRegistry, SystemResponseTypes } from "./system-response-types.js";

/** The server refused the handshake; `reason` is player-facing text (a translation key with arguments). */
export class ProtocolRefusedError extends Error {
  override readonly name = "ProtocolRefusedError";
  constructor(
    readonly reason: Text,
    readonly serverVersion: number,
  ) {
    super(`protocol refused by server (server version ${serverVersion})`);
  }
}

export interface ProtocolClientOptions {
  readonly client?: string;
  readonly requestTypes?: RequestTypeRegistry;
  readonly responseTypes?: ResponseTypeRegistry;
  /** How long to wait for the welcome and, by default, for each reply. */
  readonly timeoutMillis?: number;
  /** Only for tests of version refusal. */
  readonly protocolVersion?: number;
}

interface Pending {
  resolve(reply: ReplyResponse): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * The client end (web panel, test bot): handshakes, then encodes requests with the server's numeric ids and
 * decodes responses with them. Replies complete the request with the same id (and apply their card update);
 * everything else goes to `onResponse`. Undecodable frames close the connection.
 */
export class ProtocolClient {
  readonly cards = new ClientCards();
  readonly #pending = new Map<string, Pending>();
  readonly #listeners: ((response: AgentResponse) => void)[] = [];

  private constructor(
    private readonly channel: FrameChannel,
    readonly tables: RegistryTables,
    private readonly requests: StreamCodec<AgentRequest>,
    private readonly responses: StreamCodec<AgentResponse>,
    private readonly timeoutMillis: number,
  ) {
    channel.onFrame((frame) => this.#receive(frame));
    channel.onClose((error) => {
      for (const pending of this.#pending.values()) {
        clearTimeout(pending.timer);
        pending.reject(error ?? new Error("connection closed"));
      }
      this.#pending.clear();
    });
  }

  /** Sends the hello and waits for the welcome; rejects with ProtocolRefusedError when the server refuses. */
  static connect(channel: FrameChannel, options: ProtocolClientOptions = {}): Promise<ProtocolClient> {
    const requestTypes = options.requestTypes ?? SystemRequestTypes.builtin();
    const responseTypes = options.responseTypes ?? SystemResponseTypes.builtin();
    const timeoutMillis = options.timeoutMillis ?? 30_000;
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (action: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        action();
      };
      const timer = setTimeout(() => {
        settle(() => reject(new Error("no welcome from the server")));
        channel.close();
      }, timeoutMillis);
      channel.onClose((error) =>
        settle(() => reject(error ?? new Error("connection closed during handshake"))),
      );
      channel.onFrame((frame) => {
        if (settled) return;
        const welcome = decodeWelcome(frame);
        if (!welcome.success) {
          settle(() => reject(new Error(`bad welcome: ${welcome.error}`)));
          channel.close();
        } else if (!welcome.value.accepted) {
          const { reason, protocolVersion } = welcome.value;
          settle(() => reject(new ProtocolRefusedError(reason, protocolVersion)));
          channel.close();
        } else {
          const { tables } = welcome.value;
          const client = new ProtocolClient(
            channel,
            tables,
            AgentRequest.streamCodec(requestTypes, tables.requestTypes),
            AgentResponse.streamCodec(responseTypes, tables.responseTypes),
            timeoutMillis,
          );
          settle(() => resolve(client));
        }
      });
      channel.send(
        encodeHello({
          protocolVersion: options.protocolVersion ?? PROTOCOL_VERSION,
          client: options.client ?? "node",
        }),
      );
    });
  }

  /** Sends a request that is not answered by a reply (controls, preferences). */
  send(request: AgentRequest): void {
    this.channel.send(encodeToBytes(this.requests, request));
  }

  /** Sends a correlated request and resolves with the ReplyResponse carrying its id. */
  request(request: CorrelatedRequest, timeoutMillis = this.timeoutMillis): Promise<ReplyResponse> {
    return new Promise((resolve, reject) => {
      if (this.#pending.has(request.requestId)) throw new Error(`request ${request.requestId} is pending`);
      const timer = setTimeout(() => {
        this.#pending.delete(request.requestId);
        reject(new Error(`no reply to ${request.requestId} within ${timeoutMillis} ms`));
      }, timeoutMillis);
      this.#pending.set(request.requestId, { resolve, reject, timer });
      try {
        this.send(request);
      } catch (error) {
        clearTimeout(timer);
        this.#pending.delete(request.requestId);
        throw error;
      }
    });
  }

  /** Every response that is not the reply to a pending request (notices, state, history, navigation…). */
  onResponse(listener: (response: AgentResponse) => void): void {
    this.#listeners.push(listener);
  }

  close(): void {
    this.channel.close();
  }

  #receive(frame: Uint8Array): void {
    const decoded = AgentResponse.decode(frame, this.responses);
    if (!decoded.success) throw new Error(`bad response frame: ${decoded.error}`);
    const response = decoded.value;
    if (response instanceof ReplyResponse || response instanceof NoticeResponse) {
      if (response.card !== undefined) this.cards.apply(response.card);
    }
    const pending = response instanceof ReplyResponse ? this.#pending.get(response.requestId) : undefined;
    if (response instanceof ReplyResponse && pending !== undefined) {
      this.#pending.delete(response.requestId);
      clearTimeout(pending.timer);
      pending.resolve(response);
      return;
    }
    for (const listener of this.#listeners) listener(response);
  }
}
