import type { CardView, SpeechContent } from "../agent/card/card-builder.js";
import type { ConversationService } from "../agent/execution/conversation-service.js";
import { formatText } from "../agent/text-format.js";
import { narrationOf, spokenSummary } from "../speech/narration.js";
import type { Languages } from "../util/language.js";
import type { PresentedCard } from "./card-presenter.js";

/** A card's narration for one player: the spoken text in their language, how urgent, whether it may interrupt. */
export interface Narration {
  readonly text: string;
  readonly locale: string;
  readonly priority: "normal" | "high";
  readonly interrupt: boolean;
}

/** What cards say aloud: to a player who turned speech on (in game), or to a client with its own switch (the panel). */
export class CardSpeech {
  constructor(
    private readonly parts: { readonly languages: Languages; readonly conversation: ConversationService },
  ) {}

  /**
   * What a card narrates to this player: its SpeechContent in their language with its priority, only when they
   * turned speech on (`/system settings speech on`); undefined otherwise. History restores never call it: history
   * is read-only.
   */
  async narration(playerId: string, locale: string, card: PresentedCard): Promise<Narration | undefined> {
    const speech = narrationOf(card.view);
    if (speech === undefined) return undefined;
    if ((await this.parts.conversation.preferences(playerId)).speech !== true) return undefined;
    return {
      text: spokenSummary(formatText(this.parts.languages, locale, speech.text)),
      locale,
      priority: speech.priority ?? "normal",
      interrupt: speech.interrupt === true,
    };
  }

  /**
   * What a card says aloud in `locale` whatever the player's speech setting (a client with its own switch, the web
   * panel, decides): its own SpeechContent, else its kind's narration, an answer cut to its spoken summary.
   */
  spokenContent(locale: string, view: CardView): SpeechContent | undefined {
    const speech = narrationOf(view);
    if (speech === undefined) return undefined;
    const text = spokenSummary(formatText(this.parts.languages, locale, speech.text));
    return text.length === 0 ? undefined : { ...speech, text: { kind: "literal", text } };
  }
}
