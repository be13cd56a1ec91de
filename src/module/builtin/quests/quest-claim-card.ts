import { z } from "zod";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinLines } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";

export const QUEST_CLAIM_ACTION_ID = "system:quest_claim";

const named = z.object({ name: z.string(), count: z.number().int().positive() });

const claimCardSchema = z.object({
  questId: z.string(),
  title: z.string(),
  /**
   * queued: claimed, delivery on its way; delivered: in the inventory; already: claimed before; unconfirmed: an
   * admin checks it; choose: pick one option first; incomplete: the quest is not complete; nothing: no reward here.
   */
  status: z.enum([
    "queued",
    "delivered",
    "already",
    "unconfirmed",
    "choose",
    "incomplete",
    "nothing",
    "retry",
  ]),
  items: z.array(named).max(64),
  /** Experience points and whole levels the claim gives besides items. */
  experience: z
    .object({ points: z.number().int().nonnegative(), levels: z.number().int().nonnegative() })
    .optional(),
  skipped: z
    .array(
      z.object({ name: z.string(), reason: z.enum(["unknown_item", "not_available", "not_delivered_yet"]) }),
    )
    .max(32),
  /** `choose`: the reward to pick for and its options. */
  choice: z
    .object({
      rewardId: z.string(),
      options: z.array(named.extend({ index: z.number().int().nonnegative() })).max(16),
    })
    .optional(),
});
export type QuestClaimCardData = z.infer<typeof claimCardSchema>;

/** `system:quest_claim`: what a claim delivers, what it cannot, and choice buttons. Speech reads the headline. */
export const QUEST_CLAIM_CARD = CardType.of<QuestClaimCardData>(
  "system:quest_claim",
  codec(claimCardSchema),
  (data) => {
    const xp = data.experience;
    const items = joinLines([
      ...data.items.map((item) => translatable("system.quests.reward", literal(item.name), item.count)),
      ...(xp !== undefined && xp.points > 0 ? [translatable("system.quests.reward.xp", xp.points)] : []),
      ...(xp !== undefined && xp.levels > 0
        ? [translatable("system.quests.reward.xp_levels", xp.levels)]
        : []),
    ]);
    const skipped = joinLines(
      data.skipped.map((entry) =>
        translatable(`system.quests.claim.skipped.${entry.reason}`, literal(entry.name)),
      ),
    );
    const builder = CardBuilder.of(`system.quests.claim.${data.status}`, literal(data.title), items, skipped);
    if (data.status === "delivered")
      builder.withSpeech(translatable("system.quests.claim.speech", literal(data.title)));
    for (const option of data.choice?.options ?? [])
      builder.labelledButton({
        labelKey: "system.quests.button.choose",
        labelArgs: [option.name, String(option.count)],
        action: QUEST_CLAIM_ACTION_ID,
        args: [
          JSON.stringify({ quest: data.questId, choices: { [data.choice?.rewardId ?? ""]: option.index } }),
        ],
      });
    return builder;
  },
);
