import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { Tool } from "../../../agent/tool/tool.js";
import { ToolType } from "../../../agent/tool/tool-type.js";
import { giftListTool } from "../../../game/tools/gift-list-tool.js";
import { codec } from "../../../util/codec.js";
import {
  QUEST_BRIEF,
  QUEST_OUTPUT,
  type QuestBriefOutput,
  type QuestOutput,
  type QuestService,
} from "./quest-service.js";

const BRIEFS = codec(z.object({ quests: z.array(QUEST_BRIEF) }));

/** `system:ftb.query`: the quests the asking player can work on now. */
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
    return { quests: service.available(scope.playerId, state, scope.locale) };
  })
    .asReadOnly()
    .forReasoning(
      "List the FTB quests the asking player can work on now (numbered, in the player's language).",
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
