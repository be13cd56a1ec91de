import type { AgentResult } from "../agent/agent-result.js";
import type { CardView } from "../agent/card/card-builder.js";
import { type CardRef, formatCardRef } from "../agent/card/card-ref.js";
import type { CardRegistry } from "../agent/card/card-registry.js";
import { cardForResult } from "../agent/card/message-card.js";
import type { ServerCards } from "../agent/card/server-cards.js";
import { formatText } from "../agent/text-format.js";
import type { Languages } from "../util/language.js";

/** A card localized for one player: what a chat host draws (title, lines, buttons that run a card command). */
export interface PresentedCard {
  readonly title: string;
  readonly lines: readonly string[];
  readonly buttons: readonly {
    readonly label: string;
    readonly ref: string;
    readonly action: string;
    /** What the button does, in the player's language (its hover text). */
    readonly hover: string;
  }[];
  /** Each button on a line of its own (a menu such as help). */
  readonly buttonLines: boolean;
  readonly failed: boolean;
  /** The page issued to the player (a click must name it). */
  readonly page: CardRef;
  /** The language-neutral view (template, arguments, buttons, speech) for clients that render themselves. */
  readonly view: CardView;
}

/**
 * Turns a result into the card a player sees: the result's own card, or a message card. The page is recorded in
 * the player's ServerCards so a later click is honoured only for this player's current page; buttons are named
 * by position (`/system card <id>@<version> <index>`), so no argument text travels through chat.
 */
export const presentResult = (options: {
  readonly result: AgentResult;
  readonly locale: string;
  readonly cards: CardRegistry;
  readonly issued: ServerCards;
  readonly languages: Languages;
}): PresentedCard | undefined => {
  const builder = cardForResult(options.result, options.cards);
  if (builder === undefined) return undefined;
  const view = builder.build();
  const update = options.issued.show(view);
  const ref = formatCardRef(update.ref);
  const text = formatText(options.languages, options.locale, {
    kind: "translatable",
    key: view.template,
    args: view.arguments,
  });
  const lines = text.split("\n");
  return {
    title: lines[0] ?? "",
    lines: lines.slice(1),
    buttons: view.buttons.map((button, index) => {
      const label = options.languages.format(options.locale, button.labelKey, [...(button.labelArgs ?? [])]);
      const hover =
        button.hoverKey === undefined
          ? label
          : options.languages.format(options.locale, button.hoverKey, [...(button.hoverArgs ?? [])]);
      return { label, ref, action: String(index), hover };
    }),
    buttonLines: view.buttonLayout === "lines",
    failed: options.result.isFailure(),
    page: update.ref,
    view,
  };
};
