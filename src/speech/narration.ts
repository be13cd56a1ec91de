import type { CardView, SpeechContent } from "../agent/card/card-builder.js";
import { type Text, translatable } from "../agent/text.js";

/**
 * Narration of cards that carry no SpeechContent of their own: a short line for check-in and its reward (the
 * card's own arguments, no new data). A card's own speech (quest and chapter completion, rewards and orders
 * delivered) always wins. Keyed by the card's template, so modules never depend on this package.
 */
const NARRATED: Readonly<Record<string, (args: readonly Text[]) => Text>> = {
  "system.check_in.card.done": (args) => translatable("system.speech.check_in", ...args.slice(0, 1)),
  "system.check_in.card.done_pending": (args) => translatable("system.speech.check_in", ...args.slice(0, 1)),
  "system.check_in.card.delivered": () => translatable("system.speech.check_in_reward"),
};

/** What a card narrates: its own SpeechContent, else the narration of its kind; undefined for silent cards. */
export const narrationOf = (view: CardView): SpeechContent | undefined => {
  if (view.speech !== undefined) return view.speech;
  const text = NARRATED[view.template]?.(view.arguments);
  return text === undefined ? undefined : { text };
};

/** A spoken summary is short: the first sentence, at most `limit` characters. */
export const spokenSummary = (text: string, limit = 120): string => {
  const first = /^[^\n。！？.!?]*[。！？.!?]?/u.exec(text.trim())?.[0]?.trim() ?? "";
  return first.length <= limit ? first : `${first.slice(0, limit - 1)}…`;
};
