export { AgentResponse } from "./agent-response.js";
export { BindingResponse, BindingState } from "./binding-response.js";
export { type HistoryEntry, HistoryResponse, MAX_HISTORY_ENTRIES } from "./history-response.js";
export { NoticeResponse } from "./notice-response.js";
export { OpenResponse, OpenTarget } from "./open-response.js";
export { ProtocolClient, type ProtocolClientOptions, ProtocolRefusedError } from "./protocol-client.js";
export {
  type ClientHello,
  decodeHello,
  decodeWelcome,
  encodeHello,
  encodeWelcome,
  type ServerWelcome,
} from "./protocol-handshake.js";
export { acceptProtocol, type ProtocolServerOptions, ProtocolSession } from "./protocol-server.js";
export { PROTOCOL_VERSION } from "./protocol-version.js";
export { replyForResult } from "./reply-for-result.js";
export { AGENT_RESULT_STREAM_CODEC, MAX_RESULT_BYTES, ReplyResponse } from "./reply-response.js";
export {
  type CommandEntry,
  REGISTRY_TABLES_STREAM_CODEC,
  type RegistryTables,
  StateResponse,
  type StateSnapshot,
} from "./state-response.js";
export {
  type ResponseTypeRegistry,
  registerResponseType,
  SystemResponseTypes,
} from "./system-response-types.js";
