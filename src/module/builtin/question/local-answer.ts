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
  /** False when no model may be used (AI off, external services off); then the stored text is shown. */
  readonly summarize: boolean;
  readonly prompt: string;
}

/**
 * Answers from local entries: at most one model summary listing its local sources, verified by a re-query
 * before sending; without a model, with AI off or after a recoverable summary failure, the stored text itself.
 */
export const answerLocally = async (options: LocalAnswerOptions): Promise<AgentResult> => {
  const { context, question } = options;
  const shown = options.entries.slice(0, MAX_SUMMARY_ENTRIES);
  const summary = options.summarize ? await summarize(context, options.prompt, question, shown) : undefined;
  if (summary === undefined) return storedAnswer(options.entries);
  const checked = checkCitations(summary.sources, (n) => n >= 1 && n <= shown.length);
  const numbers = checked.kept.length > 0 ? checked.kept : shown.map((_, index) => index + 1);
  const used = numbers.map((n) => ({ n, entry: shown[n - 1] as DatabaseEntry }));
  const verify = await context.tool(DATABASE_QUERY, "verify", { query: question, limit: QUERY_LIMIT });
  const present = new Set(verify.entries.map((entry) => entry.id));
  if (used.some(({ entry }) => !present.has(entry.id))) {
    // A source vanished (removed by an admin meanwhile): the summary is no longer backed; show what remains.
    if (verify.entries.length === 0) return AgentResult.error(AgentFailure.NOT_FOUND.with(question));
    return storedAnswer(verify.entries);
  }
  return AgentResult.success().withPresentation(
    answerPresentation({
      origin: "summary",
      text: summary.text,
      sources: used.map(({ n, entry }) => ({ n, title: entry.title, entry: entry.id })),
      marked: checked.removed,
    }),
  );
};

/** The stored text of the best entries, shown as they are. */
export const storedAnswer = (entries: readonly DatabaseEntry[]): AgentResult => {
  const top = entries.slice(0, MAX_STORED_ENTRIES);
  const text = top.map((entry) => `${entry.title}\n${entry.text}`).join("\n\n");
  return AgentResult.success().withPresentation(
    answerPresentation({ origin: "stored", text, sources: top.map(localSource), marked: false }),
  );
};

const localSource = (entry: DatabaseEntry, index: number): AnswerSource => ({
  n: index + 1,
  title: entry.title,
  entry: entry.id,
});

const summarize = async (
  context: ExecutionContext,
  prompt: string,
  question: string,
  entries: readonly DatabaseEntry[],
): Promise<{ text: string; sources: number[] } | undefined> => {
  try {
    const response = await context.model({
      system: prompt,
      user: {
        question,
        entries: entries.map((entry, index) => ({ n: index + 1, title: entry.title, text: entry.text })),
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
