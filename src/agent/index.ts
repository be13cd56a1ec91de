// The engine contracts (`system/agent`): workflows, tools, results, failures, routing and player storage.

export { type Codec, codec, decodeOrThrow, type Json } from "../util/codec.js";
export { Identifier } from "../util/identifier.js";
export { invalid, type Validation, valid } from "../util/validation.js";
export { AgentException } from "./agent-exception.js";
export { AgentFailure } from "./agent-failure.js";
export { AgentResult, type Presentation, Status } from "./agent-result.js";
export { AgentCommand, type ArgumentParser } from "./command/agent-command.js";
export type { ExecutionContext, ModelCall } from "./execution/execution-context.js";
export type { ExecutionPolicy } from "./execution/execution-policy.js";
export { DEFAULT_POLICIES, defaultPolicyFor, SIMPLE_POLICY } from "./execution/policy-defaults.js";
export { customFailure, type Failure, failureIn, sameFailure } from "./failure.js";
export { AbstractAgentModule, type AgentModuleOptions } from "./module/abstract-agent-module.js";
export { ActionType, type AgentAction, type AnyActionType } from "./module/action-type.js";
export type { AgentModule, AnyAgentModule } from "./module/agent-module.js";
export { ContextType, MissingServiceError, type ModuleContext } from "./module/context-type.js";
export { ModuleRouting, type Selection } from "./module/module-routing.js";
export { type ModuleWrites, writesState } from "./module/module-writes.js";
export { type ProfileExtractor, RoutingProfile } from "./module/routing-profile.js";
export type { AgentStore } from "./storage/agent-store.js";
export {
  type AnyModuleStorage,
  DataStorage,
  ModuleStorage,
  type ModuleStorageOptions,
} from "./storage/module-storage.js";
export { hadNoEffect, NoEffectException, wasDeferred } from "./storage/no-effect.js";
export { ModuleData, type PlayerData } from "./storage/player-data.js";
export { literal, type Text, type TextArgument, translatable } from "./text.js";
export { type AnyTool, Tool, type ToolHandler, type ToolScope } from "./tool/tool.js";
export { type AnyToolType, ToolType } from "./tool/tool-type.js";
