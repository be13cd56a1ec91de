// The feature-facing API (`system/module`): what an extension's feature types are built from.
export {
  defineFeature,
  type FeatureDefinition,
  type FeatureInstance,
  type FeatureParts,
} from "./define-feature.js";
export type {
  AnyServerModuleType,
  FeatureRegistrar,
  ServerModule,
  ServerModuleContext,
  ServerModuleType,
  SystemModuleEntry,
} from "./server-module.js";
export { SERVER_PATHS, type ServerPaths } from "./server-paths.js";
export { defineExtension, type ModuleContextEvent, type SystemExtension } from "./system-extension.js";
