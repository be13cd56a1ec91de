import type { AgentEngine } from "../agent/execution/agent-engine.js";
import type { AnyAgentModule } from "../agent/module/agent-module.js";
import { ownedModule, ownedTool } from "../agent/module/owned-module.js";
import type { AnyTool } from "../agent/tool/tool.js";
import { Identifier } from "../util/identifier.js";
import type { FeatureRegistrar, ServerModule } from "./server-module.js";

/**
 * The registrar one feature installs through: it stamps the feature as owner of each workflow and tool, and
 * records what an infrastructure feature registers unowned (the only workflows allowed without an owner).
 */
export const featureRegistrar = (
  engine: AgentEngine,
  feature: ServerModule,
  unowned: Set<string>,
): FeatureRegistrar => {
  const infrastructure = feature.infrastructure === true;
  return {
    registerModule: (module) => {
      if (infrastructure) {
        if (module.owner === undefined) unowned.add(module.id.toString());
        engine.registerModule(module);
        return;
      }
      engine.registerModule(ownedModule(module, feature.id));
    },
    registerTool: (tool) => {
      const entry = tool as unknown as AnyTool;
      engine.registerTool(infrastructure ? entry : ownedTool(entry, feature.id));
    },
    registerEventType: (id) => engine.registerEventType(id),
    reject: (id, profile) =>
      engine.modules().reject(typeof id === "string" ? Identifier.parse(id) : id, profile),
    slots: (factory) => engine.modules().routes.addSlots(factory),
    tools: engine.tools,
    modules: () => engine.modules(),
  };
};

/** What a feature registered while installing again after start (a reload), before it replaces anything. */
export interface StagedFeature {
  readonly modules: AnyAgentModule[];
  readonly tools: AnyTool[];
  readonly eventTypes: string[];
  readonly rejects: string[];
}

/**
 * A registrar that collects instead of registering, with the same owner stamping: the ModuleManager checks the
 * collection against what is registered before it swaps a feature's configuration in (`configure`).
 */
export const stagingRegistrar = (
  engine: AgentEngine,
  feature: ServerModule,
): { readonly registrar: FeatureRegistrar; readonly staged: StagedFeature } => {
  const staged: StagedFeature = { modules: [], tools: [], eventTypes: [], rejects: [] };
  const registrar: FeatureRegistrar = {
    registerModule: (module) => {
      staged.modules.push(ownedModule(module, feature.id));
    },
    registerTool: (tool) => {
      staged.tools.push(ownedTool(tool as unknown as AnyTool, feature.id));
    },
    registerEventType: (id) => {
      staged.eventTypes.push(id);
    },
    reject: (id) => {
      staged.rejects.push(id.toString());
    },
    // the semantic index is built once; a reconfigured feature keeps the recognizers it added at start
    slots: () => {},
    tools: engine.tools,
    modules: () => engine.modules(),
  };
  return { registrar, staged };
};
