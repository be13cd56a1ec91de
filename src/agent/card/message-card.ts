import { z } from "zod";
import { codec } from "../../util/codec.js";
import type { AgentResult } from "../agent-result.js";
import { literal, TEXT_SCHEMA, type Text, translatable } from "../text.js";
import { CardBuilder } from "./card-builder.js";
import type { CardRegistry } from "./card-registry.js";
import { buildCard, CardType } from "./card-type.js";

/** A card that is just one message; `failed` shows it as an error. */
export interface MessageCardData {
  readonly message: Text;
  readonly failed: boolean;
}

/** `system:message`: the card of a result that brought no card of its own. */
export const MESSAGE_CARD = CardType.of<MessageCardData>(
  "system:message",
  codec(z.object({ message: TEXT_SCHEMA, failed: z.boolean() }) as z.ZodType<MessageCardData>),
  (data) => CardBuilder.of(data.failed ? "system.card.failure" : "system.card.message", data.message),
);

/**
 * The card a client shows for a result: its registered card when it has one that decodes, else a message card;
 * undefined for silent results and results without text.
 */
export const cardForResult = (result: AgentResult, cards: CardRegistry): CardBuilder | undefined => {
  const card = ownCardForResult(result, cards);
  const seconds = result.replayedSeconds;
  return card === undefined || seconds === undefined ? card : replayedCard(card, seconds);
};

const ownCardForResult = (result: AgentResult, cards: CardRegistry): CardBuilder | undefined => {
  if (result.presentation !== undefined) {
    const card = cards.cardOf(result.presentation);
    if (card.success) return buildCard(card.value);
  }
  if (result.silent || result.message === undefined) return undefined;
  return buildCard(MESSAGE_CARD.card({ message: result.message, failed: result.isFailure() }));
};

/** The translation that marks a stored answer given again: the card's own text, then how long ago it was given. */
export const REPLAYED_KEY = "system.card.replayed";

/**
 * A stored answer given again: its text followed by a line saying it repeats an answer given `seconds` ago and
 * that nothing was done again, on every surface; its buttons stay, its speech does not (nothing is announced).
 */
const replayedCard = (card: CardBuilder, seconds: number): CardBuilder => {
  const replayed = CardBuilder.of(
    REPLAYED_KEY,
    translatable(card.template, ...card.arguments),
    literal(String(seconds)),
  );
  for (const button of card.buttons) replayed.labelledButton(button);
  return replayed;
};
