import { z } from "zod";
import { ITEM_STACK, type ItemStack } from "../../../game/tools/give-items-tool.js";
import { type Codec, codec } from "../../../util/codec.js";
import { isTimeZone } from "./local-day.js";

const schema = z
  .object({
    /** Items every check-in pays. */
    rewards: z
      .array(ITEM_STACK.schema)
      .min(1)
      .max(8)
      .default([{ item: "minecraft:bread", count: 3 }]),
    /** Extra items on every `every`-th day of a streak (day 7, 14, … for every = 7). */
    streak_bonus: z
      .object({ every: z.number().int().min(2).max(365), items: z.array(ITEM_STACK.schema).min(1).max(8) })
      .optional(),
    /** Points every check-in credits to the player's points ledger (entry `check_in:<day>`); 0 credits none. */
    points: z.number().int().nonnegative().max(1_000_000).default(10),
    /** The zone whose calendar day counts; the server's zone when absent. */
    time_zone: z.string().refine(isTimeZone, "unknown time zone").optional(),
  })
  .strict();

/** The `server` part of a `system:check_in` data-pack entry. */
export type CheckInConfig = z.infer<typeof schema>;
export const CHECK_IN_CONFIG: Codec<CheckInConfig> = codec(schema as unknown as z.ZodType<CheckInConfig>);

/** The items a check-in with this streak pays: the rewards, plus the bonus on every `every`-th day. */
export const rewardsFor = (config: CheckInConfig, streak: number): ItemStack[] => {
  const items = config.rewards.map((stack) => ({ ...stack }));
  const bonus = config.streak_bonus;
  if (bonus !== undefined && streak > 0 && streak % bonus.every === 0)
    items.push(...bonus.items.map((stack) => ({ ...stack })));
  return items;
};
