import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { Tool } from "../../../agent/tool/tool.js";
import { ToolType } from "../../../agent/tool/tool-type.js";
import type { Quest } from "../../../data/quests/quest-book.js";
import { giftListTool } from "../../../game/tools/gift-list-tool.js";
import { codec } from "../../../util/codec.js";
import type { QuestService } from "./quest-service.js";
import type { QuestState } from "./quest-state.js";
import { QUEST_BRIEF, QUEST_OUTPUT, type QuestBriefOutput, type QuestOutput } from "./quest-views.js";

const BRIEFS = codec(z.object({ quests: z.array(QUEST_BRIEF) }));

/** `system:ftb.query`: the quests the asking player can claim rewards of (first) or work on now. */
export const FTB_QUERY = ToolType.of("system:ftb.query", codec(z.object({}).strict()), BRIEFS);

/** `system:ftb.find`: visible quests whose text (any language of the pack) matches. */
export const FTB_FIND = ToolType.of(
  "system:ftb.find",
  codec(z.object({ text: z.string().min(1).max(100) }).strict()),
  BRIEFS,
);

/** `system:ftb.detail`: one quest by id or by its number in the player's last list. */
export const FTB_DETAIL = ToolType.of(
  "system:ftb.detail",
  codec(z.object({ quest: z.string().min(1).max(32) }).strict()),
  codec(QUEST_OUTPUT),
);

/** The three read-only quest tools (plus the shared gift list), declared for reasoning (offered while the quests feature is enabled). */
export const questTools = (service: QuestService) => ({
  /** The shared gift-list tool, for quests whose snapshot says `starterGift`. */
  gift: giftListTool(service.catalog),
  query: Tool.of(FTB_QUERY, async (_input, scope): Promise<{ quests: QuestBriefOutput[] }> => {
    const state = await service.state(scope.playerId);
    const unclaimed = await unclaimedQuests(service, scope.playerId, state);
    return { quests: service.available(scope.playerId, state, scope.locale, unclaimed) };
  })
    .asReadOnly()
    .forReasoning(
      "List the FTB quests the asking player can claim rewards of (first, marked unclaimed) or work on now (numbered, in the player's language).",
    ),
  find: Tool.of(FTB_FIND, async (input, scope): Promise<{ quests: QuestBriefOutput[] }> => {
    const state = await service.state(scope.playerId);
    return { quests: service.find(scope.playerId, state, input.text, scope.locale) };
  })
    .asReadOnly()
    .forReasoning(
      "Find FTB quests the asking player can see whose title or subtitle contains the words of `text`.",
    ),
  detail: Tool.of(FTB_DETAIL, async (input, scope): Promise<QuestOutput> => {
    const quest = service.byReference(scope.playerId, input.quest);
    const state = await service.state(scope.playerId);
    // a quest the player cannot see is answered like one that does not exist: hidden quests stay hidden
    if (quest === undefined || !state.visible(quest))
      throw new AgentException({
        ...AgentFailure.NOT_FOUND.with(input.quest),
        key: "system.quests.not_found_id",
      });
    return service.detail(state, quest, scope.locale);
  })
    .asReadOnly()
    .forReasoning(
      "Read one FTB quest by its 16-hex id or its number in the last list: description, tasks with progress, rewards, dependencies.",
    ),
});

/** Complete quests the player can see whose rewards they have not claimed yet, in book order. */
const unclaimedQuests = async (
  service: QuestService,
  playerId: string,
  state: QuestState,
): Promise<Quest[]> => {
  const complete = [...service.book.quests.values()].filter(
    (quest) => quest.rewards.length > 0 && state.visible(quest) && state.status(quest) === "complete",
  );
  if (complete.length === 0) return [];
  const claimed = await service.claimedAmong(
    playerId,
    complete.map((quest) => quest.id),
  );
  return complete.filter((quest) => !claimed.has(quest.id));
};
