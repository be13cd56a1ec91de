import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { type Failure, failureIn } from "../../../agent/failure.js";
import { parseReply } from "../../../agent/react/react-decision.js";
import { codec } from "../../../util/codec.js";
import { DATABASE_QUERY, type DatabaseEntry } from "../knowledge/database-query-tool.js";
import { type AnswerSource, answerPresentation } from "./answer-card.js";
import { checkCitations } from "./citations.js";
import { MAX_QUEST_SOURCES, type QuestSource, questsUsable, questText } from "./quest-sources.js";

/** Entries shown to one summary; the rest of the hits only appear as stored text when no model may summarise. */
export const MAX_SUMMARY_ENTRIES = 5;
/** Entries whose stored text is shown when there is no summary. */
export const MAX_STORED_ENTRIES = 3;
export const QUERY_LIMIT = 5;

/** Summary failures after which the stored text is shown instead (never the web); others end the request. */
export const RECOVERABLE_SUMMARY: ReadonlySet<Failure> = new Set<Failure>([
  AgentFailure.MODEL_UNAVAILABLE,
  AgentFailure.MODEL_INVALID_OUTPUT,
  AgentFailure.TIMEOUT,
  AgentFailure.BUSY,
  AgentFailure.QUOTA_EXCEEDED,
  AgentFailure.BUDGET_EXHAUSTED,
  AgentFailure.MODULE_FAILED,
]);

const SUMMARY = codec(
  z.object({
    type: z.literal("answer").optional(),
    text: z.string().trim().min(1).max(4_000),
    sources: z.array(z.number()).max(16).default([]),
  }),
);

export interface LocalAnswerOptions {
  readonly context: ExecutionContext;
  readonly question: string;
  readonly entries: readonly DatabaseEntry[];
  /** Quests read for this question (empty when the quests feature is not enabled for the player). */
  readonly quests?: readonly QuestSource[];
  /** False when no model may be used (AI off, external services off); then the stored text is shown. */
  readonly summarize: boolean;
  readonly prompt: string;
}

/** One numbered source of a local answer: a knowledge entry or a quest. */
type LocalSource =
  | { readonly kind: "entry"; readonly entry: DatabaseEntry }
  | { readonly kind: "quest"; readonly quest: QuestSource };

/**
 * Answers from local sources (knowledge entries, and quests when the quests feature is enabled; quests are
 * numbered first): at most one model summary listing its local sources, verified before sending (entries by a
 * re-query, quests by the feature still being usable); without a model, with AI off or after a recoverable
 * summary failure, the stored text itself.
 */
export const answerLocally = async (options: LocalAnswerOptions): Promise<AgentResult> => {
  const { context, question } = options;
  const quests = (options.quests ?? []).slice(0, MAX_QUEST_SOURCES);
  const shown: LocalSource[] = [
    ...quests.map((quest): LocalSource => ({ kind: "quest", quest })),
    ...options.entries.slice(0, MAX_SUMMARY_ENTRIES).map((entry): LocalSource => ({ kind: "entry", entry })),
  ];
  const summary = options.summarize ? await summarize(context, options.prompt, question, shown) : undefined;
  if (summary === undefined) return storedAnswer(options.entries, quests);
  const checked = checkCitations(summary.sources, (n) => n >= 1 && n <= shown.length);
  const numbers = checked.kept.length > 0 ? checked.kept : shown.map((_, index) => index + 1);
  const used = numbers.map((n) => ({ n, source: shown[n - 1] as LocalSource }));
  const usedEntries = used.flatMap(({ source }) => (source.kind === "entry" ? [source.entry] : []));
  const usedQuests = used.some(({ source }) => source.kind === "quest");
  // Re-check before sending: an entry removed by an admin, or the quests feature switched off meanwhile.
  const verified =
    usedEntries.length > 0 || !usedQuests
      ? (await context.tool(DATABASE_QUERY, "verify", { query: question, limit: QUERY_LIMIT })).entries
      : options.entries;
  const present = new Set(verified.map((entry) => entry.id));
  const questsLeft = quests.length > 0 && !questsUsable(context) ? [] : quests;
  if (usedEntries.some((entry) => !present.has(entry.id)) || (usedQuests && questsLeft.length === 0)) {
    // A source vanished: the summary is no longer backed; show what remains.
    if (verified.length === 0 && questsLeft.length === 0)
      return AgentResult.error(AgentFailure.NOT_FOUND.with(question));
    return storedAnswer(verified, questsLeft);
  }
  return AgentResult.success().withPresentation(
    answerPresentation({
      origin: "summary",
      text: summary.text,
      sources: used.map(({ n, source }) => sourceOf(source, n)),
      marked: checked.removed,
    }),
  );
};

/** The stored text of the best quests and entries, shown as they are (quests first, then entries). */
export const storedAnswer = (
  entries: readonly DatabaseEntry[],
  quests: readonly QuestSource[] = [],
): AgentResult => {
  const shownQuests = quests.slice(0, MAX_QUEST_SOURCES);
  const top = entries.slice(
    0,
    shownQuests.length === 0 ? MAX_STORED_ENTRIES : Math.max(1, MAX_STORED_ENTRIES - shownQuests.length),
  );
  const text = top.map((entry) => `${entry.title}\n${entry.text}`).join("\n\n");
  const sources = [
    ...shownQuests.map((quest): LocalSource => ({ kind: "quest", quest })),
    ...top.map((entry): LocalSource => ({ kind: "entry", entry })),
  ].map((source, index) => sourceOf(source, index + 1));
  return AgentResult.success().withPresentation(
    answerPresentation({
      origin: "stored",
      text,
      sources,
      marked: false,
      ...(shownQuests.length === 0
        ? {}
        : {
            quests: shownQuests.map((quest) => ({
              title: quest.title,
              subtitle: quest.subtitle,
              description: [...quest.description],
              tasks: [...quest.tasks],
            })),
          }),
    }),
  );
};

const sourceOf = (source: LocalSource, n: number): AnswerSource =>
  source.kind === "entry"
    ? { n, title: source.entry.title, entry: source.entry.id }
    : { n, title: source.quest.title, quest: source.quest.id };

/** What the summary reads of one source; a quest's title is marked so the model can tell it from an entry. */
const summaryEntry = (source: LocalSource, index: number): { n: number; title: string; text: string } =>
  source.kind === "entry"
    ? { n: index + 1, title: source.entry.title, text: source.entry.text }
    : { n: index + 1, title: `Quest: ${source.quest.title}`, text: questText(source.quest) };

const summarize = async (
  context: ExecutionContext,
  prompt: string,
  question: string,
  sources: readonly LocalSource[],
): Promise<{ text: string; sources: number[] } | undefined> => {
  try {
    const response = await context.model({
      system: prompt,
      user: {
        question,
        entries: sources.map(summaryEntry),
      },
      maxOutputTokens: 800,
    });
    const data = parseReply(response.text);
    const decoded = data.success ? SUMMARY.decode(data.value) : data;
    if (!decoded.success) throw new AgentException(AgentFailure.MODEL_INVALID_OUTPUT);
    return { text: decoded.value.text, sources: decoded.value.sources };
  } catch (error) {
    if (failureIn(AgentException.failure(error), RECOVERABLE_SUMMARY)) return undefined;
    throw error;
  }
};
