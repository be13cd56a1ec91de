import { z } from "zod";
import { AgentException } from "../../agent/agent-exception.js";
import { AgentFailure } from "../../agent/agent-failure.js";
import { NoEffectException } from "../../agent/storage/no-effect.js";
import { Tool } from "../../agent/tool/tool.js";
import { ToolType } from "../../agent/tool/tool-type.js";
import { type Codec, codec } from "../../util/codec.js";
import type { Identifier } from "../../util/identifier.js";
import type { GameBridge, GiveOutcome } from "../game-bridge.js";
import { GameFailures } from "./game-failures.js";

const stackSchema = z.object({
  item: z.string().regex(/^[a-z0-9_.-]+:[a-z0-9_./-]+$/, "namespaced item id"),
  count: z.number().int().min(1).max(6400),
});

/** An item id with a count, as configs, tools and storages carry it. */
export type ItemStack = z.infer<typeof stackSchema>;
export const ITEM_STACK: Codec<ItemStack> = codec(stackSchema);
export const ITEM_STACKS: Codec<ItemStack[]> = codec(z.array(stackSchema).max(16));

const experienceSchema = z.object({
  points: z.number().int().min(0).max(1_000_000),
  levels: z.number().int().min(0).max(1_000),
});

const giveSchema = z
  .object({
    items: z.array(stackSchema).max(16),
    /** Experience points, then whole levels, given in the same save as the items. */
    experience: experienceSchema.optional(),
  })
  .refine(
    (input) =>
      input.items.length > 0 || (input.experience?.points ?? 0) + (input.experience?.levels ?? 0) > 0,
    "items or experience",
  );

/** What one give step puts into the inventory: stacks, and experience in the same save. */
export type GiveInput = z.infer<typeof giveSchema>;

/** `system:game.give_items`: puts items (and experience) into the asking player's inventory. */
export const GIVE_ITEMS = ToolType.of(
  "system:game.give_items",
  codec(giveSchema),
  codec(z.object({ given: z.array(stackSchema) })),
);

/**
 * The write tool that pays rewards: durable (a journal receipt per step id), allowed in events, and NOT
 * idempotent. It gives all stacks or none, and returns only once they are in the player's saved data, so a DONE
 * receipt means the items survive a crash; a DONE step is replayed without calling the game. A refusal that
 * changed nothing (offline, unknown item, no room, the world unreachable now: EFFECT_DEFERRED) is a
 * NoEffectException, so the step may run again later; it settles by itself on abort (nothing sent: no effect); a
 * give whose outcome is unknown is EFFECT_UNKNOWN, and a RUNNING receipt after a crash is never run again.
 */
export const giveItemsTool = (options: {
  readonly bridge: GameBridge;
  readonly owner: Identifier;
}): Tool<GiveInput, { given: ItemStack[] }> =>
  Tool.of(GIVE_ITEMS, async (input, scope) => {
    if (scope.signal.aborted) throw new NoEffectException(AgentFailure.CANCELLED);
    let outcome: GiveOutcome;
    try {
      outcome = await options.bridge.giveItems(scope.playerId, input.items, input.experience, scope.signal);
    } catch (error) {
      throw new AgentException(AgentFailure.EFFECT_UNKNOWN.with(GIVE_ITEMS.id.toString(), scope.stepId), {
        cause: error,
      });
    }
    if (!outcome.given) {
      if (outcome.refusal === "offline") throw new NoEffectException(GameFailures.playerOffline());
      if (outcome.refusal === "unsupported") throw new NoEffectException(GameFailures.noWorldEffects());
      if (outcome.refusal === "unavailable")
        throw new NoEffectException(AgentFailure.EFFECT_DEFERRED.with(outcome.cause ?? "unavailable"));
      const stack = outcome.item ?? input.items[0];
      throw new NoEffectException(GameFailures.giveFailed(stack?.item ?? "", stack?.count ?? 0));
    }
    return { given: input.items.map((stack) => ({ item: stack.item, count: stack.count })) };
  })
    .allowInEvents()
    .settlingOnAbort()
    .ownedBy(options.owner);
