export type {
  ModelCallMeta,
  ModelClient,
  ModelPort,
  ModelRequest,
  ModelResponse,
  TokenUsage,
} from "./model-client.js";
export {
  DEFAULT_MODEL_SETTINGS,
  MODEL_ENVIRONMENT,
  MODEL_SETTINGS_CODEC,
  ModelConfig,
  type ModelSettings,
} from "./model-config.js";
export { type DailyQuota, ModelGateway, type ModelGatewayOptions } from "./model-gateway.js";
export { ModelSemaphore } from "./model-semaphore.js";
export { type OpenAiEndpoint, OpenAiModelClient } from "./openai-model-client.js";
export { fixedPrompts, missingPrompt, PromptNames, type PromptSource, promptId } from "./prompt-source.js";
export { stripReasoning } from "./reasoning-filter.js";
