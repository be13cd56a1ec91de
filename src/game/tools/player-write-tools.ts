import { z } from "zod";
import { AgentException } from "../../agent/agent-exception.js";
import { AgentFailure } from "../../agent/agent-failure.js";
import { NoEffectException } from "../../agent/storage/no-effect.js";
import { Tool } from "../../agent/tool/tool.js";
import { ToolType } from "../../agent/tool/tool-type.js";
import { codec } from "../../util/codec.js";
import type { Identifier } from "../../util/identifier.js";
import type { GameBridge, TakeOutcome } from "../game-bridge.js";
import { GameFailures } from "./game-failures.js";
import { ITEM_STACK, type ItemStack } from "./give-items-tool.js";

const takeSchema = z.object({ items: z.array(ITEM_STACK.schema).min(1).max(16) });

/** `system:game.take_items`: removes items from the asking player's inventory (all or none). */
export const TAKE_ITEMS = ToolType.of(
  "system:game.take_items",
  codec(takeSchema),
  codec(z.object({ taken: z.array(ITEM_STACK.schema) })),
);

/** A bridge call whose outcome is unknown when it throws: the step must never run again by itself. */
const unknownOnThrow = async <T>(tool: ToolType<never, unknown>, stepId: string, work: () => Promise<T>) => {
  try {
    return await work();
  } catch (error) {
    throw new AgentException(AgentFailure.EFFECT_UNKNOWN.with(tool.id.toString(), stepId), { cause: error });
  }
};

/**
 * The write tool that consumes items (a quest's `consume_items` task): all stacks or none, durable, allowed in
 * events, NOT idempotent (taking twice takes twice). A player who does not hold them all, or is offline, is a
 * refusal without effect; a failed save is EFFECT_UNKNOWN.
 */
export const takeItemsTool = (options: {
  readonly bridge: GameBridge;
  readonly owner: Identifier;
}): Tool<z.infer<typeof takeSchema>, { taken: ItemStack[] }> =>
  Tool.of(TAKE_ITEMS, async (input, scope) => {
    if (scope.signal.aborted) throw new NoEffectException(AgentFailure.CANCELLED);
    const outcome: TakeOutcome = await unknownOnThrow(TAKE_ITEMS as never, scope.stepId, () =>
      options.bridge.takeItems(scope.playerId, input.items),
    );
    if (!outcome.taken) {
      if (outcome.refusal === "offline") throw new NoEffectException(GameFailures.playerOffline());
      if (outcome.refusal === "unsupported") throw new NoEffectException(GameFailures.noWorldEffects());
      if (outcome.refusal === "unavailable")
        throw new NoEffectException(GameFailures.takeDeferred(outcome.cause ?? "unavailable"));
      const stack = outcome.item ?? input.items[0];
      throw new NoEffectException(GameFailures.takeFailed(stack?.item ?? "", stack?.count ?? 0));
    }
    return { taken: input.items.map((stack) => ({ item: stack.item, count: stack.count })) };
  })
    .allowInEvents()
    .ownedBy(options.owner);
