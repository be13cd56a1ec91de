import { z } from "zod";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinLines } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal, type Text, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";
import { QUEST_CLAIM_ACTION_ID } from "./quest-claim-card.js";
import { QUEST_BRIEF, QUEST_OUTPUT, type QuestOutput } from "./quest-views.js";

export const QUEST_DETAIL_ACTION_ID = "system:quest";
export const QUEST_CHECK_ACTION_ID = "system:quest_check";
export const QUEST_SUBMIT_ACTION_ID = "system:quest_submit";

const BUTTONS = 8;

const listSchema = z.object({
  /** `available`: what the player can do now; `candidates`: several quests match `query`. */
  kind: z.enum(["available", "candidates"]),
  query: z.string().max(100).optional(),
  quests: z.array(QUEST_BRIEF).max(20),
});
export type QuestListData = z.infer<typeof listSchema>;

/** `system:quest_list`: a numbered list; the first quests are buttons that open them. */
export const QUEST_LIST_CARD = CardType.of<QuestListData>("system:quest_list", codec(listSchema), (data) => {
  if (data.quests.length === 0)
    return CardBuilder.of(
      data.kind === "available" ? "system.quests.none" : "system.quests.not_found",
      literal(data.query ?? ""),
    );
  const lines = data.quests.map((quest, index) =>
    translatable(
      "system.quests.line",
      quest.number ?? index + 1,
      literal(quest.title),
      literal(quest.chapter),
      translatable(
        quest.unclaimed === true ? "system.quests.status.unclaimed" : `system.quests.status.${quest.status}`,
      ),
    ),
  );
  const builder = CardBuilder.of(
    data.kind === "available" ? "system.quests.list" : "system.quests.candidates",
    joinLines(lines),
    literal(data.query ?? ""),
  );
  for (const quest of data.quests.slice(0, BUTTONS))
    builder.labelledButton({
      labelKey: "system.quests.button.open",
      labelArgs: [String(quest.number ?? ""), quest.title],
      action: QUEST_DETAIL_ACTION_ID,
      args: [JSON.stringify({ query: quest.id })],
    });
  return builder;
});

/** A quest's reward lines: items with counts, experience, and rewards this server never runs. */
const rewardLines = (data: { readonly rewards: QuestOutput["rewards"] }): Text[] =>
  data.rewards.map((reward) => {
    if (reward.type === "xp" || reward.type === "xp_levels")
      return translatable(`system.quests.reward.${reward.type}`, reward.count);
    return translatable(
      reward.type === "command" || reward.type === "custom"
        ? "system.quests.reward.unavailable"
        : "system.quests.reward",
      literal(reward.title),
      reward.count,
    );
  });

/** Why a quest is locked (its tasks may all be done, as after an admin's `/system complete`): what to finish first. */
const lockedBy = (data: { readonly dependencies: QuestOutput["dependencies"] }): Text => {
  const open = data.dependencies.filter((dependency) => dependency.status !== "complete");
  return open.length === 0
    ? translatable("system.quests.locked")
    : translatable("system.quests.locked_by", literal(open.map((dependency) => dependency.title).join(", ")));
};

const detailSchema = QUEST_OUTPUT.extend({
  /** A gift's contents from the shared gift-list tool (names, and whether each item can be delivered here). */
  gift: z
    .object({
      entries: z
        .array(z.object({ item: z.string(), name: z.string(), count: z.number(), deliverable: z.boolean() }))
        .max(32),
      experience: z.object({ points: z.number(), levels: z.number() }).optional(),
    })
    .optional(),
  /** Tasks recorded as done by this request (items held, a level reached). */
  recorded: z.number().int().nonnegative(),
  /**
   * `ready`: complete with rewards to claim (a button); `claimed`: claimed before; `book`: rewards to claim in
   * the FTB quest book (the mod delivers them, System shows no button).
   */
  claim: z.enum(["none", "ready", "claimed", "book"]),
});
export type QuestDetailData = z.infer<typeof detailSchema>;

/** `system:quest_detail`: title, subtitle, description, tasks with progress, rewards; checkmarks are buttons. */
export const QUEST_DETAIL_CARD = CardType.of<QuestDetailData>(
  "system:quest_detail",
  codec(detailSchema),
  (data) => {
    const tasks: Text[] = data.tasks.map((task) =>
      translatable(`system.quests.task.${task.status}`, literal(task.title), task.have, task.need),
    );
    const gift = data.gift;
    const rewards: Text[] =
      gift === undefined
        ? rewardLines(data)
        : [
            translatable("system.quests.gift"),
            ...gift.entries.map((entry) =>
              translatable(
                entry.deliverable ? "system.quests.reward" : "system.quests.gift.unknown",
                literal(entry.name),
                entry.count,
              ),
            ),
            ...(gift.experience !== undefined && gift.experience.points > 0
              ? [translatable("system.quests.reward.xp", gift.experience.points)]
              : []),
            ...(gift.experience !== undefined && gift.experience.levels > 0
              ? [translatable("system.quests.reward.xp_levels", gift.experience.levels)]
              : []),
          ];
    const description =
      data.description.length === 0 ? literal("") : literal(`\n${data.description.join("\n")}`);
    const builder = CardBuilder.of(
      "system.quests.detail",
      literal(data.title),
      literal(data.chapter),
      translatable(`system.quests.status.${data.status}`),
      literal(data.subtitle),
      description,
      joinLines(tasks),
      // a quest without rewards says nothing of rewards (never "Rewards: none")
      rewards.length === 0 ? literal("") : translatable("system.quests.rewards", joinLines(rewards)),
      data.claim === "claimed"
        ? translatable("system.quests.claimed")
        : data.claim === "book"
          ? translatable("system.quests.claim_in_book")
          : data.status === "locked"
            ? lockedBy(data)
            : literal(""),
    );
    if (data.claim === "ready")
      builder.labelledButton({
        labelKey: "system.quests.button.claim",
        action: QUEST_CLAIM_ACTION_ID,
        args: [JSON.stringify({ quest: data.id })],
      });
    for (const task of data.tasks)
      if (task.status === "manual" || task.status === "submit")
        builder.labelledButton({
          labelKey: task.status === "manual" ? "system.quests.button.check" : "system.quests.button.submit",
          labelArgs: [task.title],
          action: task.status === "manual" ? QUEST_CHECK_ACTION_ID : QUEST_SUBMIT_ACTION_ID,
          args: [JSON.stringify({ task: task.id })],
        });
    return builder;
  },
);
