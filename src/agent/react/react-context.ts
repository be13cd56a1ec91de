import type { Codec, Json } from "../../util/codec.js";
import type { ExecutionContext } from "../execution/execution-context.js";
import type { ToolContext } from "../tool/tool-context.js";
import { ToolObservation } from "../tool/tool-observation.js";
import type { ToolType } from "../tool/tool-type.js";
import { ANSWER_TYPE, ReActDecisionCodec } from "./react-decision.js";
import type { AnyReActTool, ReActTool } from "./react-tool.js";

export interface ReActContextOptions<O> {
  /** The player's question as the model should read it. */
  readonly question: string;
  /** The system text (e.g. react.txt) as loaded when the request started. */
  readonly prompt: string;
  /** The loop's own ToolContext (from `context.tools(...)`). */
  readonly tools: ToolContext;
  /** The actions this loop may offer; those whose tools the ToolContext lacks are left out. */
  readonly catalog: readonly AnyReActTool[];
  /** The codec of the final answer fields (everything beside `"type":"answer"`). */
  readonly answer: Codec<O>;
  /** Workflow facts shown to the model under `context` (e.g. allowed source numbers). */
  readonly facts?: { readonly [key: string]: Json };
}

/** The user JSON of one model request. */
export type ReActUserJson = { readonly [key: string]: Json };

/** Notices about refused replies kept for the next prompt (the newest only). */
const MAX_NOTICES = 3;

/**
 * The state of one loop: question, prompt snapshot, catalog, typed observations, actions taken and the round
 * counter. Created per loop and owned by it; never stored on player data, a global or another request.
 */
export class ReActContext<O> {
  readonly question: string;
  readonly prompt: string;
  readonly tools: ToolContext;
  readonly catalog: readonly AnyReActTool[];
  readonly decisions: ReActDecisionCodec<O>;
  /** The round limit, read from the request's policy snapshot when the loop was created. */
  readonly rounds: number;
  readonly #facts: { readonly [key: string]: Json } | undefined;
  readonly #offered: Json[];
  readonly #answerSchema: Json;
  readonly #observations: ToolObservation<unknown, unknown>[] = [];
  readonly #projected: Json[] = [];
  readonly #actions = new Set<string>();
  readonly #notices: string[] = [];
  #round = 0;

  private constructor(execution: ExecutionContext, options: ReActContextOptions<O>) {
    this.question = options.question;
    this.prompt = options.prompt;
    this.tools = options.tools;
    this.catalog = options.catalog.filter((tool) =>
      tool.uses.every((type) => options.tools.has(type.id.toString())),
    );
    this.decisions = new ReActDecisionCodec(this.catalog, options.answer);
    this.rounds = execution.policy.reactIterations;
    const history = execution.history;
    this.#facts =
      history.length === 0
        ? options.facts
        : { history: history.map((turn) => ({ role: turn.role, text: turn.text })), ...options.facts };
    this.#offered = this.catalog.map((tool) => tool.describe());
    this.#answerSchema = options.answer.jsonSchema() as Json;
  }

  /** Starts a loop's state; the round limit is the policy snapshot's `reactIterations` at this moment. */
  static create<O>(execution: ExecutionContext, options: ReActContextOptions<O>): ReActContext<O> {
    return new ReActContext(execution, options);
  }

  /** Rounds used so far (model decision attempts, whatever their outcome). */
  get round(): number {
    return this.#round;
  }

  /** Counts the next round and returns its number (1-based). */
  nextRound(): number {
    this.#round++;
    return this.#round;
  }

  /** Typed observations in the order they were made. */
  observations(): readonly ToolObservation<unknown, unknown>[] {
    return this.#observations;
  }

  /** The observations of one tool type, typed. */
  observationsOf<I, O2>(type: ToolType<I, O2>): ToolObservation<I, O2>[] {
    return this.#observations.filter(
      (entry) => entry.type === (type as unknown),
    ) as unknown as ToolObservation<I, O2>[];
  }

  get hasEvidence(): boolean {
    return this.#observations.length > 0;
  }

  /** Whether this action key was taken already. */
  taken(key: string): boolean {
    return this.#actions.has(key);
  }

  /** Marks an action as taken before it runs, so a failed action is not repeated either. */
  take(key: string): void {
    this.#actions.add(key);
  }

  /** Keeps a tool result typed and projects it once for the prompts that follow. */
  observe<I, R>(tool: ReActTool<I, R>, input: I, output: R): void {
    const observation = new ToolObservation(tool.type, input, output, (result, given) =>
      tool.project(result, given),
    );
    this.#observations.push(observation as unknown as ToolObservation<unknown, unknown>);
    this.#projected.push({ round: this.#round, ...(observation.project() as { [key: string]: Json }) });
  }

  /** Records why a reply was refused; the model reads it in the next round. */
  notice(text: string): void {
    this.#notices.push(`round ${this.#round}: ${text}`);
    if (this.#notices.length > MAX_NOTICES) this.#notices.shift();
  }

  /** The user JSON of the current round; a finalOnly round offers no tools. */
  userJson(finalOnly: boolean): ReActUserJson {
    return {
      question: this.question,
      ...(this.#facts === undefined ? {} : { context: this.#facts }),
      tools: finalOnly ? [] : this.#offered,
      answer: { type: ANSWER_TYPE, fields: this.#answerSchema },
      observations: [...this.#projected],
      ...(this.#notices.length === 0 ? {} : { notices: [...this.#notices] }),
      round: this.#round,
      rounds: this.rounds,
      finalOnly,
    };
  }
}
