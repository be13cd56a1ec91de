import type { Codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { invalid, type Validation, valid } from "../../util/validation.js";
import type { AnyReActTool } from "./react-tool.js";

/** What one model reply asks for: an action of this loop's catalog, or the final answer. */
export type ReActDecision<O> =
  | { readonly kind: "action"; readonly tool: AnyReActTool; readonly input: unknown }
  | { readonly kind: "answer"; readonly answer: O };

/** The reserved decision type of a final answer; no catalog tool may use it. */
export const ANSWER_TYPE = "answer";

/** Replies longer than this are invalid output without being parsed. */
const MAX_REPLY_CHARS = 1_048_576;
const FENCE = /^```[a-zA-Z]*[ \t]*\r?\n?([\s\S]*?)\r?\n?[ \t]*```$/;

/**
 * The dispatch codec of one loop, built from that loop's catalog only: `{"type":"<tool id>","input":{…}}` or
 * `{"type":"answer", …answer fields}`. Everything else (bad JSON, unknown or uncatalogued types, inputs or answers
 * the codecs refuse) is an error value, never an action.
 */
export class ReActDecisionCodec<O> {
  readonly #tools = new Map<string, AnyReActTool>();

  constructor(
    catalog: readonly AnyReActTool[],
    private readonly answer: Codec<O>,
  ) {
    for (const tool of catalog) {
      if (tool.id === `system:${ANSWER_TYPE}`) throw new Error(`react tool ${tool.id}: "answer" is reserved`);
      if (this.#tools.has(tool.id)) throw new Error(`react tool ${tool.id} is listed twice`);
      this.#tools.set(tool.id, tool);
    }
  }

  /**
   * Decodes a reply. In a finalOnly round no action is accepted, and an object holding only the answer fields
   * (no `type`) is accepted as the answer. Never throws.
   */
  decode(text: string, finalOnly: boolean): Validation<ReActDecision<O>> {
    try {
      const data = parseReply(text);
      if (!data.success) return data;
      return this.#dispatch(data.value, finalOnly);
    } catch (error) {
      return invalid(`unreadable reply (${error instanceof Error ? error.name : "error"})`);
    }
  }

  #dispatch(data: unknown, finalOnly: boolean): Validation<ReActDecision<O>> {
    if (typeof data !== "object" || data === null || Array.isArray(data))
      return invalid("the reply must be one JSON object");
    const { type, ...rest } = data as Record<string, unknown>;
    if (type === undefined && finalOnly) return this.#answer(rest);
    if (typeof type !== "string") return invalid('the reply needs a string "type"');
    if (type === ANSWER_TYPE) return this.#answer(rest);
    const tool = this.#find(type);
    if (tool === undefined) return invalid(`type ${quote(type)} is not an offered tool`);
    if (finalOnly) return invalid(`type ${quote(type)}: this round accepts only an answer`);
    const input = tool.type.input.decode(rest.input ?? {});
    if (!input.success) return invalid(`input of ${tool.id}: ${input.error.slice(0, 300)}`);
    return valid({ kind: "action", tool, input: input.value });
  }

  #answer(fields: Record<string, unknown>): Validation<ReActDecision<O>> {
    const answer = this.answer.decode(fields);
    if (!answer.success) return invalid(`answer: ${answer.error.slice(0, 300)}`);
    return valid({ kind: "answer", answer: answer.value });
  }

  #find(type: string): AnyReActTool | undefined {
    const exact = this.#tools.get(type);
    if (exact !== undefined) return exact;
    const id = Identifier.tryParse(type);
    return id === undefined ? undefined : this.#tools.get(id.toString());
  }
}

/** Parses a reply as JSON, tolerating surrounding whitespace and one Markdown code fence. */
export const parseReply = (text: string): Validation<unknown> => {
  if (text.length > MAX_REPLY_CHARS) return invalid("the reply is too long");
  let body = text.trim();
  const fenced = FENCE.exec(body);
  if (fenced !== null) body = (fenced[1] ?? "").trim();
  if (body.length === 0) return invalid("the reply is empty");
  try {
    return valid(JSON.parse(body) as unknown);
  } catch {
    return invalid("the reply is not valid JSON");
  }
};

/** Model text quoted for a notice: short, so a hostile reply cannot flood the next prompt. */
const quote = (text: string): string => JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);
