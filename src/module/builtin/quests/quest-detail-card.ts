import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import type { Quest } from "../../../data/quests/quest-book.js";
import type { GiftList } from "../../../game/tools/gift-list-tool.js";
import { QUEST_DETAIL_CARD } from "./quest-cards.js";
import type { QuestService } from "./quest-service.js";
import type { QuestOutput } from "./quest-views.js";

/** Titles of quests a request found complete for the first time (at most eight, the card's limit). */
export const completedTitles = (service: QuestService, quests: readonly Quest[], locale: string): string[] =>
  quests.slice(0, 8).map((quest) => service.title(quest, locale));

/** A quest's card: its claim button while rewards are unclaimed, and the completions this request announces. */
export const detailCard = async (
  service: QuestService,
  context: ExecutionContext,
  detail: QuestOutput,
  recorded: { readonly tasks: number; readonly completed: readonly Quest[] },
  gift?: GiftList,
): Promise<AgentResult> => {
  const claimable = detail.status === "complete" && detail.rewards.length > 0;
  const claim = !claimable
    ? "none"
    : (await service.claimed(context.playerId, detail.id))
      ? "claimed"
      : service.keeper === "mod"
        ? "book"
        : "ready";
  const completed = completedTitles(service, recorded.completed, context.locale);
  return AgentResult.success(
    undefined,
    present(
      QUEST_DETAIL_CARD.card({
        ...detail,
        recorded: recorded.tasks,
        claim,
        completed,
        ...(gift === undefined ? {} : { gift }),
      }),
    ),
  );
};
