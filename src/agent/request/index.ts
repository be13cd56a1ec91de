export { AgentRequest, type CorrelatedRequest, type DecodedRequest } from "./agent-request.js";
export { CardActionRequest } from "./card-action-request.js";
export { ChatRequest } from "./chat-request.js";
export { ControlRequest } from "./control-request.js";
export { InvokeRequest, type ModuleCall } from "./invoke-request.js";
export { PREFERENCES_STREAM_CODEC, PreferencesRequest } from "./preferences-request.js";
export { type RequestTypeRegistry, registerRequestType, SystemRequestTypes } from "./system-request-types.js";
