export {
  ArchiveError,
  type ArchiveLimits,
  DEFAULT_ARCHIVE_LIMITS,
} from "./archive.js";
export { type BuildStats, buildContentCatalog, contentSources } from "./content-build.js";
export { ContentCatalog, type ContentItem, type SourceSummary } from "./content-catalog.js";
export type {
  ContentIssue,
  ContentLayer,
  ContentRecipe,
  Ingredient,
  LootDrop,
  ModInfo,
  RecipeOutput,
} from "./content-model.js";
