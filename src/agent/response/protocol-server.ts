import type { FrameChannel } from "../../util/frame-transport.js";
import type { Logger } from "../../util/logger.js";
import { encodeToBytes, idTable, type StreamCodec } from "../../util/stream-codec.js";
import { AgentException } from "../agent-exception.js";
import { AgentResult } from "../agent-result.js";
import type { CardRegistry } from "../card/card-registry.js";
import { AgentRequest } from "../request/agent-request.js";
import type { RequestTypeRegistry } from "../request/system-request-types.js";
import { translatable } from "../text.js";
import { AgentResponse } from "./agent-response.js";
import { NoticeResponse } from "./notice-response.js";
import { decodeHello, encodeWelcome } from "./protocol-handshake.js";
import { PROTOCOL_VERSION } from "./protocol-version.js";
import { ReplyResponse } from "./reply-response.js";
import type { RegistryTables } from "./state-response.js";
import type { ResponseTypeRegistry } from "./system-response-types.js";

/** How a server speaks the protocol on one connection. Registries must be frozen (their numeric ids are sent). */
export interface ProtocolServerOptions {
  readonly requestTypes: RequestTypeRegistry;
  readonly responseTypes: ResponseTypeRegistry;
  readonly cardTypes?: CardRegistry;
  /** Handles one decoded request; a throw or rejection answers a correlated request with an error result. */
  readonly handle: (request: AgentRequest, session: ProtocolSession) => void | Promise<void>;
  readonly logger?: Logger;
  /** Malformed request frames tolerated before the connection is closed. */
  readonly maxInvalidFrames?: number;
  /** A connection that sends no hello within this time is closed (default 10 s). */
  readonly handshakeMillis?: number;
  /** Only for tests of version refusal. */
  readonly protocolVersion?: number;
}

/**
 * The server end of one connection: the first frame must be a hello of the same protocol version (anything else
 * is refused and closed), then every frame is a request. Bad frames are answered with INPUT_INVALID notices,
 * never a crash.
 */
export class ProtocolSession {
  readonly #requests: StreamCodec<AgentRequest>;
  readonly #responses: StreamCodec<AgentResponse>;
  readonly #version: number;
  #state: "handshake" | "open" | "closed" = "handshake";
  #invalidFrames = 0;
  #client = "";

  constructor(
    private readonly channel: FrameChannel,
    private readonly options: ProtocolServerOptions,
  ) {
    this.#requests = AgentRequest.streamCodec(options.requestTypes);
    this.#responses = AgentResponse.streamCodec(options.responseTypes);
    this.#version = options.protocolVersion ?? PROTOCOL_VERSION;
    const handshake = setTimeout(() => {
      if (this.#state === "handshake") channel.close(new Error("no hello in time"));
    }, options.handshakeMillis ?? 10_000);
    handshake.unref();
    channel.onFrame((frame) => (this.#state === "handshake" ? this.#hello(frame) : this.#request(frame)));
    channel.onClose((error) => {
      clearTimeout(handshake);
      this.#state = "closed";
      if (error !== undefined) options.logger?.warn(`protocol connection closed: ${error.message}`);
    });
  }

  /** The numeric id tables this server sends in its welcome. */
  tables(): RegistryTables {
    return {
      requestTypes: idTable(this.options.requestTypes),
      responseTypes: idTable(this.options.responseTypes),
      cardTypes: this.options.cardTypes === undefined ? [] : idTable(this.options.cardTypes.registry),
    };
  }

  get open(): boolean {
    return this.#state === "open";
  }

  /** The client name from its hello. */
  get client(): string {
    return this.#client;
  }

  /**
   * Sends a response; dropped once the connection is closed (the player left). Throws (RangeError) only when the
   * response exceeds a wire or frame limit, which a handler turns into an error reply.
   */
  send(response: AgentResponse): void {
    if (this.#state !== "open" || this.channel.closed) return;
    const bytes = encodeToBytes(this.#responses, response);
    try {
      this.channel.send(bytes);
    } catch (error) {
      if (error instanceof RangeError) throw error; // over the frame limit: nothing was written
      this.channel.close(error instanceof Error ? error : new Error(String(error)));
    }
  }

  close(): void {
    this.channel.close();
  }

  #hello(frame: Uint8Array): void {
    const hello = decodeHello(frame, this.#version);
    if (!hello.success) {
      this.channel.close(new Error(`bad hello: ${hello.error}`));
      return;
    }
    const { protocolVersion } = hello.value;
    if (protocolVersion !== this.#version) {
      const reason = translatable(
        "system.protocol.version_mismatch",
        String(protocolVersion),
        String(this.#version),
      );
      this.channel.send(encodeWelcome({ accepted: false, protocolVersion: this.#version, reason }));
      this.channel.close(new Error(`refused protocol version ${protocolVersion}`));
      return;
    }
    this.#client = hello.value.client;
    this.channel.send(
      encodeWelcome({ accepted: true, protocolVersion: this.#version, tables: this.tables() }),
    );
    this.#state = "open";
  }

  #request(frame: Uint8Array): void {
    const decoded = AgentRequest.decode(frame, this.#requests);
    if (!decoded.success) {
      this.send(new NoticeResponse(translatable(decoded.failure.key, ...decoded.failure.args)));
      if (++this.#invalidFrames > (this.options.maxInvalidFrames ?? 8))
        this.channel.close(new Error("too many invalid frames"));
      return;
    }
    const request = decoded.value;
    const fail = (error: unknown): void => {
      this.options.logger?.error(`request ${request.type} failed`, error);
      try {
        if (AgentRequest.isCorrelated(request))
          this.send(new ReplyResponse(request.requestId, AgentResult.error(AgentException.failure(error))));
      } catch (sendError) {
        this.options.logger?.error("could not send the error reply", sendError);
      }
    };
    try {
      const pending = this.options.handle(request, this);
      if (pending !== undefined) pending.catch(fail);
    } catch (error) {
      fail(error);
    }
  }
}

/** Speaks the protocol on a frame channel (a TCP or WebSocket connection). */
export const acceptProtocol = (channel: FrameChannel, options: ProtocolServerOptions): ProtocolSession =>
  new ProtocolSession(channel, options);
