import type { AgentResult } from "../agent-result.js";
import type { CardRegistry } from "../card/card-registry.js";
import { cardForResult } from "../card/message-card.js";
import type { ServerCards } from "../card/server-cards.js";
import { ReplyResponse } from "./reply-response.js";

/**
 * The reply to a correlated request: the result, and its card shown as a new card (recorded in the player's
 * ServerCards so its buttons can be clicked), or as the next page of `replacing` (the card a button came from).
 */
export const replyForResult = (options: {
  readonly requestId: string;
  readonly result: AgentResult;
  readonly cards: CardRegistry;
  readonly issued: ServerCards;
  readonly replacing?: string;
}): ReplyResponse => {
  const view = cardForResult(options.result, options.cards)?.build();
  if (view === undefined) return new ReplyResponse(options.requestId, options.result);
  const update =
    (options.replacing === undefined ? undefined : options.issued.replace(options.replacing, view)) ??
    options.issued.show(view);
  return new ReplyResponse(options.requestId, options.result, update);
};
