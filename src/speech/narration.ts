import type { CardView, SpeechContent } from "../agent/card/card-builder.js";
import { type Text, type TextArgument, translatable } from "../agent/text.js";

/**
 * The number in a card's count of days ("1 day" is `system.check_in.days.one`, "5 days" carries 5), so the
 * narration says "day 5 of your streak" in its own words.
 */
const dayNumber = (days: Text | undefined): TextArgument => {
  if (days === undefined) return "";
  if (days.kind === "literal") return days;
  return days.key.endsWith(".one") ? 1 : (days.args[0] ?? "");
};

/**
 * Narration of cards that carry no SpeechContent of their own: a short line for check-in and its reward (the
 * card's own arguments, no new data). A card's own speech (quest and chapter completion, rewards and orders
 * delivered) always wins. Keyed by the card's template, so modules never depend on this package.
 */
const NARRATED: Readonly<Record<string, (args: readonly Text[]) => Text>> = {
  "system.check_in.card.done": (args) => translatable("system.speech.check_in", dayNumber(args[0])),
  "system.check_in.card.done_pending": (args) => translatable("system.speech.check_in", dayNumber(args[0])),
  "system.check_in.card.delivered": () => translatable("system.speech.check_in_reward"),
};

/** Answer cards (`/question`, `/search`, `/reason`, free chat): their answer text, cut to a short summary. */
const ANSWER =
  /^system\.(question\.card\.[a-z_]+|reasoning\.card\.answer|free_chat\.card\.answer(_ran|_ran_one)?)$/u;

/**
 * What a card narrates: its own SpeechContent, else the narration of its kind (check-in, its reward; an answer's
 * text, of which `spokenSummary` keeps the first sentence); undefined for silent cards.
 */
export const narrationOf = (view: CardView): SpeechContent | undefined => {
  if (view.speech !== undefined) return view.speech;
  const text = ANSWER.test(view.template) ? view.arguments[0] : NARRATED[view.template]?.(view.arguments);
  return text === undefined ? undefined : { text };
};

/**
 * A spoken summary is short: the first sentence, at most `limit` characters. A first line without any sentence
 * ending (a heading such as a knowledge entry's title) is skipped when text follows it.
 */
export const spokenSummary = (text: string, limit = 120): string => {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const heading = lines.length > 1 && !/[。！？.!?:：]/u.test(lines[0] ?? "");
  const body = (heading ? lines.slice(1) : lines).join("\n");
  const first = /^[^\n。！？.!?]*[。！？.!?]?/u.exec(body)?.[0]?.trim() ?? "";
  return first.length <= limit ? first : `${first.slice(0, limit - 1)}…`;
};
