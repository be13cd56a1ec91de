import { z } from "zod";
import type { Presentation } from "../../../agent/agent-result.js";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinTexts, LIST_KEY } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal, type Text, translatable } from "../../../agent/text.js";
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
  /** The FTB quest id of a quest source (cited as "Quest: <title>"). */
  readonly quest?: string;
}

/** The text of a quest shown as it is (a stored answer): data of the pack, only ever quoted. */
export interface AnswerQuest {
  readonly title: string;
  readonly subtitle: string;
  readonly description: readonly string[];
  readonly tasks: readonly string[];
}

export interface AnswerCardData {
  readonly origin: AnswerOrigin;
  readonly text: string;
  readonly sources: readonly AnswerSource[];
  /** True when cited numbers were removed because they were out of range or never read. */
  readonly marked: boolean;
  /** Quests whose own text a stored answer shows before the knowledge entries' text. */
  readonly quests?: readonly AnswerQuest[];
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
          quest: z.string().max(32).optional(),
        }),
      )
      .max(32),
    marked: z.boolean(),
    quests: z
      .array(
        z.object({
          title: z.string().max(300),
          subtitle: z.string().max(300),
          description: z.array(z.string().max(1_000)).max(32),
          tasks: z.array(z.string().max(300)).max(16),
        }),
      )
      .max(8)
      .optional(),
  }) as z.ZodType<AnswerCardData>,
);

/** The source list as one line of data (titles and URLs are data, never part of a translation key). */
export const sourceLine = (sources: readonly AnswerSource[]): string =>
  sources
    .map((source) => `[${source.n}] ${source.title}${source.url === undefined ? "" : ` <${source.url}>`}`)
    .join("  ");

/** One source as text: a quest is cited through a translation ("[1] Quest: Timber!"), others as data. */
const sourceText = (source: AnswerSource): Text =>
  source.quest === undefined
    ? literal(sourceLine([source]))
    : translatable("system.question.source.quest", source.n, literal(source.title));

/** The sources of a card: the plain line when no quest is cited (unchanged), else one text per source. */
const sourcesText = (sources: readonly AnswerSource[]): Text =>
  sources.some((source) => source.quest !== undefined)
    ? joinTexts(sources.map(sourceText), "system.question.sources.join")
    : literal(sourceLine(sources));

/** A quest shown as it is: "Quest: title — subtitle", its description lines, then its tasks. */
const questText = (quest: AnswerQuest): Text =>
  translatable(
    "system.question.quest",
    literal(quest.title),
    quest.subtitle.length === 0
      ? literal("")
      : translatable("system.question.quest.subtitle", literal(quest.subtitle)),
    literal(quest.description.map((line) => `\n${line}`).join("")),
    quest.tasks.length === 0
      ? literal("")
      : translatable("system.question.quest.tasks", joinTexts(quest.tasks.map(literal), LIST_KEY)),
  );

/** The answer body: the quests' own text (stored answers) before the answer text. */
const bodyText = (data: AnswerCardData): Text => {
  const parts = [
    ...(data.quests ?? []).map(questText),
    ...(data.text.length > 0 ? [literal(data.text)] : []),
  ];
  return parts.length === 0 ? literal("") : joinTexts(parts, "system.question.parts");
};

/** `system:question_answer`: the answer text, its origin and the list of sources; marked when citations were removed. */
export const ANSWER_CARD = CardType.of<AnswerCardData>(
  "system:question_answer",
  ANSWER_CARD_CODEC,
  (data) => {
    const quests =
      data.sources.some((source) => source.quest !== undefined) || (data.quests ?? []).length > 0;
    return CardBuilder.of(
      `system.question.card.${data.origin}${quests ? "_quests" : ""}`,
      quests ? bodyText(data) : literal(data.text),
      sourcesText(data.sources),
      data.marked ? translatable("system.question.citations_removed") : literal(""),
    );
  },
);

/** The presentation of an answer card inside an AgentResult. */
export const answerPresentation = (data: AnswerCardData): Presentation => ({
  type: ANSWER_CARD.id.toString(),
  data: ANSWER_CARD.codec.encode(data),
});
