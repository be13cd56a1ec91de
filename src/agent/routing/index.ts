export {
  type DirectRefusal,
  directRefusal,
  isReadOnlyModule,
  isReplayedModule,
} from "./direct-qualification.js";
export { EmbeddingIndex } from "./embedding-index.js";
export {
  type EmbeddingProvider,
  OpenAiEmbeddings,
  type OpenAiEmbeddingsOptions,
} from "./embedding-provider.js";
export {
  HybridRouter,
  type HybridRouterOptions,
  type RouteRequest,
  type StructuredRequest,
} from "./hybrid-router.js";
export { type CachedRoute, IntentCache } from "./intent-cache.js";
export {
  CLARIFY,
  type ModelRoute,
  type ModelRouteRequest,
  ModelRouter,
  type ModelRouterOptions,
  ROUTER_POLICY,
} from "./model-router.js";
export { parseReplyObject } from "./reply-json.js";
export type { RouteCandidate, RouteDecision, RouteEvidence, RouteSource } from "./route-decision.js";
export { explainDecision } from "./route-explanation.js";
export { CATALOG_BYTES, type CatalogEntry, catalogLines } from "./router-catalog.js";
export type { Availability, RoutingPlayer } from "./routing-player.js";
export { RoutingTable } from "./routing-table.js";
export {
  DEFAULT_SEMANTIC_SETTINGS,
  type EmbeddingSettings,
  SEMANTIC_SETTINGS_CODEC,
  SemanticConfig,
  type SemanticSettings,
} from "./semantic-config.js";
export { type IndexEntry, SemanticIndex, type TargetScore } from "./semantic-index.js";
export {
  type SemanticMatch,
  SemanticRouter,
  type SemanticRouterOptions,
  type SimilaritySearch,
} from "./semantic-router.js";
export { type GuardHit, StatementGuard } from "./statement-guard.js";
export { buildSuggestions, DEFAULT_CHOICE_KEY, type SuggestionOptions } from "./suggestions.js";
export { type AnalyzedText, normalizeText, TextAnalyzer } from "./text-analyzer.js";
