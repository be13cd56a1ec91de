import type { Identifier } from "../../util/identifier.js";
import { Registry } from "../../util/registry.js";
import type { StreamCodec } from "../../util/stream-codec.js";
import type { AgentRequest } from "./agent-request.js";
import { CardActionRequest } from "./card-action-request.js";
import { ChatRequest } from "./chat-request.js";
import { ControlRequest } from "./control-request.js";
import { InvokeRequest } from "./invoke-request.js";
import { PreferencesRequest } from "./preferences-request.js";

/** Request types by id; after freeze their numeric ids are what the wire carries. */
export type RequestTypeRegistry = Registry<StreamCodec<AgentRequest>>;

/** Registers one request type under its id; the registered codec is the implementation's own STREAM_CODEC. */
export const registerRequestType = <T extends AgentRequest>(
  registry: RequestTypeRegistry,
  id: Identifier,
  codec: StreamCodec<T>,
): StreamCodec<T> => {
  registry.register(id, codec as StreamCodec<AgentRequest>);
  return codec;
};

/** The built-in request types (system:chat, invoke, control, preferences, card_action). */
export const SystemRequestTypes = {
  /** A new, unfrozen registry with the built-ins, for a host that adds its own types before freezing. */
  create(): RequestTypeRegistry {
    const registry: RequestTypeRegistry = new Registry("agent_request_type");
    registerRequestType(registry, ChatRequest.TYPE, ChatRequest.STREAM_CODEC);
    registerRequestType(registry, InvokeRequest.TYPE, InvokeRequest.STREAM_CODEC);
    registerRequestType(registry, ControlRequest.TYPE, ControlRequest.STREAM_CODEC);
    registerRequestType(registry, PreferencesRequest.TYPE, PreferencesRequest.STREAM_CODEC);
    registerRequestType(registry, CardActionRequest.TYPE, CardActionRequest.STREAM_CODEC);
    return registry;
  },

  /** The frozen built-ins only; what AgentRequest.STREAM_CODEC dispatches over. */
  builtin(): RequestTypeRegistry {
    const registry = SystemRequestTypes.create();
    registry.freeze();
    return registry;
  },
};
