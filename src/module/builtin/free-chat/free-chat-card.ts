import { z } from "zod";
import type { Presentation } from "../../../agent/agent-result.js";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { present } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";

export interface FreeChatCardData {
  /** The model's final answer (empty when the loop stopped before it). */
  readonly text: string;
  /** How many workflows ran and showed their own card above this one. */
  readonly ran: number;
  /** True when free chat stopped before its answer (the cards above are what it did). */
  readonly incomplete: boolean;
}

const FREE_CHAT_CARD_CODEC = codec<FreeChatCardData>(
  z.object({
    text: z.string().max(4_000),
    ran: z.number().int().min(0).max(64),
    incomplete: z.boolean(),
  }) as z.ZodType<FreeChatCardData>,
);

/** `system:free_chat_answer`: the answer, saying how many workflow cards it showed above; or that it stopped. */
export const FREE_CHAT_CARD = CardType.of<FreeChatCardData>(
  "system:free_chat_answer",
  FREE_CHAT_CARD_CODEC,
  (data) => {
    if (data.incomplete) return CardBuilder.of("system.free_chat.card.incomplete", literal(String(data.ran)));
    if (data.ran === 0) return CardBuilder.of("system.free_chat.card.answer", literal(data.text));
    return data.ran === 1
      ? CardBuilder.of("system.free_chat.card.answer_ran_one", literal(data.text))
      : CardBuilder.of("system.free_chat.card.answer_ran", literal(data.text), literal(String(data.ran)));
  },
);

export const freeChatPresentation = (data: FreeChatCardData): Presentation =>
  present(FREE_CHAT_CARD.card(data));
