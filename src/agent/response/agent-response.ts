import type { Identifier } from "../../util/identifier.js";
import { decodeFromBytes, StreamCodec } from "../../util/stream-codec.js";
import type { Validation } from "../../util/validation.js";
import { type ResponseTypeRegistry, SystemResponseTypes } from "./system-response-types.js";

/**
 * A message from the server to a client. Each implementation keeps its own static STREAM_CODEC and is registered
 * by id in a response type registry; `type` names that registration.
 */
export interface AgentResponse {
  readonly type: Identifier;
}

const ROOT: StreamCodec<AgentResponse> = StreamCodec.dispatch(
  SystemResponseTypes.builtin(),
  (response) => response.type,
);

export const AgentResponse = {
  /** Dispatch by numeric id over a frozen registry; `table` is the server's id table from the handshake. */
  streamCodec(registry: ResponseTypeRegistry, table?: readonly string[]): StreamCodec<AgentResponse> {
    return StreamCodec.dispatch(registry, (response) => response.type, table);
  },

  /** The root codec over the built-in response types: numeric id, then the type's own codec. */
  STREAM_CODEC: ROOT,

  /** Decodes one response frame from untrusted bytes; never throws on bad input. */
  decode(bytes: Uint8Array, codec: StreamCodec<AgentResponse> = ROOT): Validation<AgentResponse> {
    return decodeFromBytes(codec, bytes);
  },
};
