import { z } from "zod";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import type { Failure } from "../../../agent/failure.js";
import { ReActContext } from "../../../agent/react/react-context.js";
import { ReActLoop } from "../../../agent/react/react-loop.js";
import { isTerminal } from "../../../agent/react/react-outcome.js";
import { ReActTool } from "../../../agent/react/react-tool.js";
import { codec } from "../../../util/codec.js";
import { normalizeUrl } from "../search/search-session.js";
import type { WebGate } from "../search/web-access.js";
import { WEB_FETCH, WEB_SEARCH, type WebFetchOutput } from "../search/web-tools.js";
import { type AnswerSource, answerPresentation } from "./answer-card.js";
import { checkCitations } from "./citations.js";

/** The final answer of web research: `{"type":"answer","text":"…","sources":[1]}`. */
export interface WebAnswer {
  readonly text: string;
  readonly sources: readonly number[];
}

export const WEB_ANSWER = codec<WebAnswer>(
  z.object({
    text: z.string().trim().min(1).max(4_000),
    sources: z.array(z.number()).max(16).default([]),
  }) as unknown as z.ZodType<WebAnswer>,
);

/** Failures that, with evidence, earn one final answer within what is left (never a retry of a paid call). */
export const WEB_RECOVERABLE: ReadonlySet<Failure> = new Set<Failure>([
  AgentFailure.MODEL_UNAVAILABLE,
  AgentFailure.MODEL_INVALID_OUTPUT,
  AgentFailure.TIMEOUT,
  AgentFailure.BUSY,
  AgentFailure.QUOTA_EXCEEDED,
  AgentFailure.BUDGET_EXHAUSTED,
  AgentFailure.MODULE_FAILED,
]);

const SEARCH_ACTION = ReActTool.of(WEB_SEARCH, "Search the web with a few precise keywords.").withDedupeKey(
  (input) => input.query.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim(),
);

const FETCH_ACTION = ReActTool.of(WEB_FETCH, "Read one page whose URL a web.search of this request returned.")
  .withDedupeKey((input) => normalizeUrl(input.url) ?? input.url)
  .withProjection((output: WebFetchOutput) => ({ ...output }));

export interface WebResearchOptions {
  readonly context: ExecutionContext;
  readonly question: string;
  readonly prompt: string;
  readonly gate: WebGate;
  /** The workflow's business authorization (feature still enabled…); a refusal ends the loop at once. */
  readonly guard: () => Failure | undefined;
}

/**
 * Web research on the ReActLoop with `web.search` and `web.fetch` only. The answer's citation numbers are
 * checked by the server: a number this request's searches never returned, or whose page was never read, is
 * removed and the card marked. A loop that fails after finding something keeps what it found (partial).
 */
export const researchWeb = async (options: WebResearchOptions): Promise<AgentResult> => {
  const { context, gate } = options;
  const react = ReActContext.create(context, {
    question: options.question,
    prompt: options.prompt,
    tools: context.tools(WEB_SEARCH, WEB_FETCH),
    catalog: [SEARCH_ACTION, FETCH_ACTION],
    answer: WEB_ANSWER,
    facts: {
      knowledgeBase: "The server's knowledge base has no entry for this question.",
      citations: "Only the numbers n of results you read with web.fetch count as sources.",
    },
  });
  const outcome = await ReActLoop.run(context, react, { recoverable: WEB_RECOVERABLE, guard: options.guard });
  const session = gate.session;
  if (outcome.kind === "answer") {
    const checked = checkCitations(
      outcome.answer.sources,
      (n) => session.source(n) !== undefined && session.wasFetched(n),
    );
    const sources = checked.kept.flatMap((n): AnswerSource[] => {
      const source = session.source(n);
      return source === undefined ? [] : [{ n, title: source.title, url: source.url }];
    });
    return AgentResult.success().withPresentation(
      answerPresentation({ origin: "web", text: outcome.answer.text, sources, marked: checked.removed }),
    );
  }
  const found = session.sources();
  // Lost authorization or cancellation never gets a compensating answer.
  if (found.length === 0 || isTerminal(outcome.failure)) return AgentResult.error(outcome.failure);
  // The research stopped after finding sources: keep them (read pages first) and say it is incomplete.
  const read = found.filter((source) => session.wasFetched(source.number));
  const kept = (read.length > 0 ? read : found).slice(0, 8);
  return AgentResult.success()
    .withPresentation(
      answerPresentation({
        origin: "web_partial",
        text: "",
        sources: kept.map((source) => ({ n: source.number, title: source.title, url: source.url })),
        marked: false,
      }),
    )
    .partial(outcome.failure);
};
