import { z } from "zod";
import type { Presentation } from "../../../agent/agent-result.js";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";

/** Where an answer came from: a model summary of local entries, the stored text itself, or web research. */
export type AnswerOrigin = "summary" | "stored" | "web" | "web_partial";

export interface AnswerSource {
  /** The number shown beside the source (the citation number). */
  readonly n: number;
  readonly title: string;
  readonly url?: string;
  /** The knowledge entry id of a local source. */
  readonly entry?: number;
}

export interface AnswerCardData {
  readonly origin: AnswerOrigin;
  readonly text: string;
  readonly sources: readonly AnswerSource[];
  /** True when cited numbers were removed because they were out of range or never read. */
  readonly marked: boolean;
}

export const ANSWER_CARD_CODEC = codec<AnswerCardData>(
  z.object({
    origin: z.enum(["summary", "stored", "web", "web_partial"]),
    text: z.string().max(20_000),
    sources: z
      .array(
        z.object({
          n: z.number().int(),
          title: z.string().max(300),
          url: z.string().max(2_048).optional(),
          entry: z.number().int().optional(),
        }),
      )
      .max(32),
    marked: z.boolean(),
  }) as z.ZodType<AnswerCardData>,
);

/** The source list as one line of data (titles and URLs are data, never part of a translation key). */
export const sourceLine = (sources: readonly AnswerSource[]): string =>
  sources
    .map((source) => `[${source.n}] ${source.title}${source.url === undefined ? "" : ` <${source.url}>`}`)
    .join("  ");

/** `system:question_answer`: the answer text, its origin and the list of sources; marked when citations were removed. */
export const ANSWER_CARD = CardType.of<AnswerCardData>("system:question_answer", ANSWER_CARD_CODEC, (data) =>
  CardBuilder.of(
    `system.question.card.${data.origin}`,
    literal(data.text),
    literal(sourceLine(data.sources)),
    data.marked ? translatable("system.question.citations_removed") : literal(""),
  ),
);

/** The presentation of an answer card inside an AgentResult. */
export const answerPresentation = (data: AnswerCardData): Presentation => ({
  type: ANSWER_CARD.id.toString(),
  data: ANSWER_CARD.codec.encode(data),
});
