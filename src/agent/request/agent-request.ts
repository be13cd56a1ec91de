import type { Identifier } from "../../util/identifier.js";
import { decodeFromBytes, StreamCodec } from "../../util/stream-codec.js";
import { AgentFailure } from "../agent-failure.js";
import type { Failure } from "../failure.js";
import { type RequestTypeRegistry, SystemRequestTypes } from "./system-request-types.js";

/**
 * A message from a client (game host or web panel) to the server. Each implementation keeps its own static
 * STREAM_CODEC and is registered by id in a request type registry; `type` names that registration.
 */
export interface AgentRequest {
  readonly type: Identifier;
}

/** A request that expects a ReplyResponse carrying the same request id. */
export interface CorrelatedRequest extends AgentRequest {
  readonly requestId: string;
}

/** Decoded bytes, or INPUT_INVALID naming what was wrong. */
export type DecodedRequest =
  | { readonly success: true; readonly value: AgentRequest }
  | { readonly success: false; readonly failure: Failure };

const ROOT: StreamCodec<AgentRequest> = StreamCodec.dispatch(
  SystemRequestTypes.builtin(),
  (request) => request.type,
);

export const AgentRequest = {
  /** Dispatch by numeric id over a frozen registry; `table` is the peer's id table when it differs. */
  streamCodec(registry: RequestTypeRegistry, table?: readonly string[]): StreamCodec<AgentRequest> {
    return StreamCodec.dispatch(registry, (request) => request.type, table);
  },

  /** The root codec over the built-in request types: numeric id, then the type's own codec. */
  STREAM_CODEC: ROOT,

  /** Decodes one request frame from untrusted bytes; never throws on bad input. */
  decode(bytes: Uint8Array, codec: StreamCodec<AgentRequest> = ROOT): DecodedRequest {
    const decoded = decodeFromBytes(codec, bytes);
    return decoded.success
      ? decoded
      : { success: false, failure: AgentFailure.INPUT_INVALID.with(decoded.error) };
  },

  /** Whether a request is answered by a ReplyResponse with its id. */
  isCorrelated(request: AgentRequest): request is CorrelatedRequest {
    return typeof (request as Partial<CorrelatedRequest>).requestId === "string";
  },
};
