import type { ExecutionPolicy } from "../execution/execution-policy.js";
import type { AnyAgentModule } from "../module/agent-module.js";
import type { AnyModuleRouting } from "../module/module-routing.js";

/** Why a module may not be reached without the model or an explicit entry (undefined: it may). */
export type DirectRefusal = "not_interactive" | "not_defaults" | "no_read_profile" | "writes" | "write_tool";

/**
 * The registry's side of a direct route (local semantic match, intent cache, fallback candidate): an interactive
 * `defaults()` module declared with `RoutingProfile.read`, declaring no writes, a policy without write steps and
 * only read-only tools.
 */
export const directRefusal = (
  module: AnyAgentModule,
  routing: AnyModuleRouting,
  policy: ExecutionPolicy,
): DirectRefusal | undefined => {
  if (!module.interactive) return "not_interactive";
  if (routing.selection !== "defaults") return "not_defaults";
  if (routing.profile?.kind !== "read") return "no_read_profile";
  if (module.writes !== "none" || policy.writeSteps !== 0) return "writes";
  if (module.tools.some((tool) => !tool.readOnly)) return "write_tool";
  return undefined;
};

/**
 * Whether a workflow declares that it writes (its declaration, a write step in its policy, or a tool that is not
 * read-only): such a workflow never runs without an explicit entry, and a fallback card offers it only as a button
 * the player clicks.
 */
export const declaresWrites = (module: AnyAgentModule, policy: ExecutionPolicy): boolean =>
  module.writes !== "none" || policy.writeSteps !== 0 || module.tools.some((tool) => !tool.readOnly);

/**
 * Whether a module only reads (candidate cards may offer it, a repeat may share its running answer): interactive,
 * declaring no writes, no write steps, read-only tools.
 */
export const isReadOnlyModule = (module: AnyAgentModule, policy: ExecutionPolicy): boolean =>
  module.interactive &&
  module.writes === "none" &&
  policy.writeSteps === 0 &&
  module.tools.every((tool) => tool.readOnly);

/** Whether a repeat of the module's structured request within the replay window is answered by its stored result. */
export const isReplayedModule = (module: AnyAgentModule): boolean =>
  module.interactive && module.writes === "replayable";
