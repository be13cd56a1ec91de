import { z } from "zod";
import { AgentException } from "../../agent/agent-exception.js";
import { Tool } from "../../agent/tool/tool.js";
import { ToolType } from "../../agent/tool/tool-type.js";
import { type Codec, codec } from "../../util/codec.js";
import type { Identifier } from "../../util/identifier.js";
import type { GameBridge } from "../game-bridge.js";
import { GameFailures } from "./game-failures.js";

const stackSchema = z.object({
  item: z.string().regex(/^[a-z0-9_.-]+:[a-z0-9_./-]+$/, "namespaced item id"),
  count: z.number().int().min(1).max(6400),
});

/** An item id with a count, as configs, tools and storages carry it. */
export type ItemStack = z.infer<typeof stackSchema>;
export const ITEM_STACK: Codec<ItemStack> = codec(stackSchema);
export const ITEM_STACKS: Codec<ItemStack[]> = codec(z.array(stackSchema).max(16));

const giveSchema = z.object({ items: z.array(stackSchema).min(1).max(16) });

/** `system:game.give_items`: puts items into the asking player's inventory. */
export const GIVE_ITEMS = ToolType.of(
  "system:game.give_items",
  codec(giveSchema),
  codec(z.object({ given: z.array(stackSchema) })),
);

/**
 * The write tool that pays rewards. It is durable (a journal receipt per step id), idempotent (a RUNNING or
 * FAILED receipt may run again: an offline player or a full inventory gave nothing) and allowed in events.
 * A DONE receipt is replayed without calling the game, so a replayed step never pays twice.
 */
export const giveItemsTool = (options: {
  readonly bridge: GameBridge;
  readonly owner: Identifier;
}): Tool<z.infer<typeof giveSchema>, { given: ItemStack[] }> =>
  Tool.of(GIVE_ITEMS, async (input, scope) => {
    if (!options.bridge.isOnline(scope.playerId)) throw new AgentException(GameFailures.playerOffline());
    const given: ItemStack[] = [];
    for (const stack of input.items) {
      scope.signal.throwIfAborted();
      if (!(await options.bridge.giveItem(scope.playerId, stack.item, stack.count)))
        throw new AgentException(GameFailures.giveFailed(stack.item, stack.count));
      given.push({ item: stack.item, count: stack.count });
    }
    return { given };
  })
    .asIdempotent()
    .allowInEvents()
    .ownedBy(options.owner);
