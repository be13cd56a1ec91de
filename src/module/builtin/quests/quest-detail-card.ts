import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import type { GiftList } from "../../../game/tools/gift-list-tool.js";
import { QUEST_DETAIL_CARD } from "./quest-cards.js";
import type { QuestService } from "./quest-service.js";
import type { QuestOutput } from "./quest-views.js";

/**
 * A quest's card: its claim button while rewards are unclaimed. A completion this request recorded is announced
 * once, by the `quest_narration` rule's notice (the game event the record reports), never again on the card.
 */
export const detailCard = async (
  service: QuestService,
  context: ExecutionContext,
  detail: QuestOutput,
  recorded: { readonly tasks: number },
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
  return AgentResult.success(
    undefined,
    present(
      QUEST_DETAIL_CARD.card({
        ...detail,
        recorded: recorded.tasks,
        claim,
        ...(gift === undefined ? {} : { gift }),
      }),
    ),
  );
};
