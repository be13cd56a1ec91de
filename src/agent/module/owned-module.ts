import type { Identifier } from "../../util/identifier.js";
import type { AgentResult } from "../agent-result.js";
import type { AnyTool } from "../tool/tool.js";
import type { AnyAgentModule } from "./agent-module.js";

/**
 * The workflow as its feature registers it: `owner` stamped on the workflow and on every required tool that
 * has none. A delegating view (the module's own object, private state included, keeps running `run`), so a
 * feature builds its workflows without repeating its id. A module that already names another owner is refused.
 */
export const ownedModule = (module: AnyAgentModule, owner: Identifier): AnyAgentModule => {
  if (module.owner !== undefined) {
    if (module.owner.equals(owner)) return module;
    throw new Error(`workflow ${module.id} names the owner ${module.owner} but is registered by ${owner}`);
  }
  const tools: readonly AnyTool[] = module.tools.map((tool) => ownedTool(tool, owner));
  const routing = module.routing;
  // a module that labels its choice buttons by input (ChoiceLabeller) keeps doing so through the view
  const choiceLabel = (module as { choiceLabel?: (input: unknown) => unknown }).choiceLabel;
  return {
    ...(typeof choiceLabel === "function"
      ? { choiceLabel: (input: unknown) => choiceLabel.call(module, input) }
      : {}),
    id: module.id,
    description: module.description,
    action: module.action,
    tools,
    optionalTools: module.optionalTools,
    policy: module.policy,
    writes: module.writes,
    interactive: module.interactive,
    event: module.event,
    eventTypes: module.eventTypes,
    ...(module.eventInput === undefined ? {} : { eventInput: module.eventInput }),
    owner,
    ...(module.requiresModel === undefined ? {} : { requiresModel: module.requiresModel }),
    run: (input, context) => module.run(input, context),
    ...(module.effectConfirmed === undefined
      ? {}
      : {
          effectConfirmed: (input: unknown, playerId: string) =>
            (module.effectConfirmed as (input: unknown, playerId: string) => Promise<void>).call(
              module,
              input,
              playerId,
            ),
        }),
    ...(module.replayed === undefined
      ? {}
      : {
          replayed: (stored: AgentResult) =>
            (module.replayed as (stored: AgentResult) => AgentResult).call(module, stored),
        }),
    ...(routing === undefined ? {} : { routing: () => routing.call(module) }),
  };
};

const stamped = new WeakMap<AnyTool, Map<string, AnyTool>>();

/**
 * A tool stamped with its feature; a tool that already has an owner (another feature's export) keeps it. One
 * instance per tool and owner, so a tool two workflows of one feature share stays one registered instance.
 */
export const ownedTool = (tool: AnyTool, owner: Identifier): AnyTool => {
  if (tool.owner !== undefined) return tool;
  const byOwner = stamped.get(tool) ?? new Map<string, AnyTool>();
  stamped.set(tool, byOwner);
  const key = owner.toString();
  const existing = byOwner.get(key);
  if (existing !== undefined) return existing;
  const owned = tool.ownedBy(owner);
  byOwner.set(key, owned);
  return owned;
};
