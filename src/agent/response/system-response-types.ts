import type { Identifier } from "../../util/identifier.js";
import { Registry } from "../../util/registry.js";
import type { StreamCodec } from "../../util/stream-codec.js";
import type { AgentResponse } from "./agent-response.js";
import { BindingResponse } from "./binding-response.js";
import { HistoryResponse } from "./history-response.js";
import { NoticeResponse } from "./notice-response.js";
import { OpenResponse } from "./open-response.js";
import { ReplyResponse } from "./reply-response.js";
import { StateResponse } from "./state-response.js";

/** Response types by id; after freeze their numeric ids are what the wire carries. */
export type ResponseTypeRegistry = Registry<StreamCodec<AgentResponse>>;

/** Registers one response type under its id; the registered codec is the implementation's own STREAM_CODEC. */
export const registerResponseType = <T extends AgentResponse>(
  registry: ResponseTypeRegistry,
  id: Identifier,
  codec: StreamCodec<T>,
): StreamCodec<T> => {
  registry.register(id, codec as StreamCodec<AgentResponse>);
  return codec;
};

/** The built-in response types (system:reply, notice, open, binding, state, history). */
export const SystemResponseTypes = {
  /** A new, unfrozen registry with the built-ins, for a host that adds its own types before freezing. */
  create(): ResponseTypeRegistry {
    const registry: ResponseTypeRegistry = new Registry("agent_response_type");
    registerResponseType(registry, ReplyResponse.TYPE, ReplyResponse.STREAM_CODEC);
    registerResponseType(registry, NoticeResponse.TYPE, NoticeResponse.STREAM_CODEC);
    registerResponseType(registry, OpenResponse.TYPE, OpenResponse.STREAM_CODEC);
    registerResponseType(registry, BindingResponse.TYPE, BindingResponse.STREAM_CODEC);
    registerResponseType(registry, StateResponse.TYPE, StateResponse.STREAM_CODEC);
    registerResponseType(registry, HistoryResponse.TYPE, HistoryResponse.STREAM_CODEC);
    return registry;
  },

  /** The frozen built-ins only; what AgentResponse.STREAM_CODEC dispatches over. */
  builtin(): ResponseTypeRegistry {
    const registry = SystemResponseTypes.create();
    registry.freeze();
    return registry;
  },
};
