import { z } from "zod";
import { codec, type Json } from "../../util/codec.js";
import { invalid, type Validation, valid } from "../../util/validation.js";
import { AgentResult } from "../agent-result.js";
import type { Text } from "../text.js";

/** One history entry; entries are told apart by role, and an assistant entry carries the AgentResult itself. */
export type ConversationTurn =
  | { readonly role: "user"; readonly requestId: string; readonly at: number; readonly text: string }
  | {
      readonly role: "assistant";
      readonly requestId: string;
      readonly at: number;
      readonly result: AgentResult;
    };

/** A player's conversation preferences: keep history, and allow external services (model providers, web). */
export interface ConversationPreferences {
  readonly history: boolean;
  readonly external: boolean;
  /** Narration of cards that carry speech (a title or action bar in game, the panel's voice); off by default. */
  readonly speech?: boolean;
}

/**
 * Where history and preferences are kept (the chat cache file `<world>/system/chat/<UUID>.dat` in a server).
 * Reads return copies. A store may cap what it keeps; the prompt projection is bounded separately.
 */
export interface ConversationStore {
  history(playerId: string): Promise<readonly ConversationTurn[]>;
  append(playerId: string, turns: readonly ConversationTurn[]): Promise<void>;
  clearHistory(playerId: string): Promise<void>;
  /** Stored preferences, or undefined when the player never chose (the service applies defaults). */
  preferences(playerId: string): Promise<ConversationPreferences | undefined>;
  setPreferences(playerId: string, preferences: ConversationPreferences): Promise<void>;
  /** Deletes the conversation kept for the player, history and preferences (revoke). */
  delete(playerId: string): Promise<void>;
}

const TURN_SHAPE = codec(
  z.discriminatedUnion("role", [
    z.object({ role: z.literal("user"), requestId: z.string(), at: z.number(), text: z.string() }),
    z.object({ role: z.literal("assistant"), requestId: z.string(), at: z.number(), result: z.unknown() }),
  ]),
);

/** Encodes a turn for a store file; the assistant's AgentResult goes through AgentResult.CODEC. */
export const encodeTurn = (turn: ConversationTurn): Json =>
  turn.role === "user"
    ? { role: "user", requestId: turn.requestId, at: turn.at, text: turn.text }
    : {
        role: "assistant",
        requestId: turn.requestId,
        at: turn.at,
        result: AgentResult.CODEC.encode(turn.result),
      };

/** Decodes a stored turn; a malformed entry is an error value, never a thrown exception. */
export const decodeTurn = (data: unknown): Validation<ConversationTurn> => {
  const shape = TURN_SHAPE.decode(data);
  if (!shape.success) return invalid(shape.error);
  const turn = shape.value;
  if (turn.role === "user") return valid(turn);
  const result = AgentResult.CODEC.decode(turn.result);
  return result.success ? valid({ ...turn, result: result.value }) : invalid(`result: ${result.error}`);
};

/** Stored preferences; both fields required. */
export const PREFERENCES_CODEC = codec<ConversationPreferences>(
  z.object({
    history: z.boolean(),
    external: z.boolean(),
    speech: z.boolean().optional(),
  }) as z.ZodType<ConversationPreferences>,
);

/** How a projection renders an assistant message; a server passes its language tables. */
export type TextRenderer = (text: Text) => string;

/** A projected turn, plain JSON for the model user payload. */
export type ProjectedTurn = { readonly role: "user" | "assistant"; readonly text: string };

/** The bounds of the history given to a prompt. */
export interface ConversationMemoryOptions {
  /** At most this many turns (newest kept). */
  readonly maxTurns: number;
  /** At most this many UTF-8 bytes of the JSON encoding of the projected list. */
  readonly maxBytes: number;
  readonly render?: TextRenderer;
}

export const CONVERSATION_MEMORY_DEFAULTS: ConversationMemoryOptions = Object.freeze({
  maxTurns: 12,
  maxBytes: 8_192,
});

const MARK = "…";

/** A text as plain words without language tables: literal text, or the key with its arguments. */
export const plainText: TextRenderer = (text) =>
  text.kind === "literal"
    ? text.text
    : [text.key, ...text.args.map((arg) => (typeof arg === "object" ? plainText(arg) : String(arg)))].join(
        " ",
      );

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), "utf8");

/** Cuts text so that its JSON encoding (with a trailing mark) fits `budget` bytes; never splits a code point. */
const truncate = (text: string, budget: number): string | undefined => {
  const points = Array.from(text);
  let low = 0;
  let high = points.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (bytesOf(points.slice(0, middle).join("") + MARK) <= budget) low = middle;
    else high = middle - 1;
  }
  return low === 0 ? undefined : points.slice(0, low).join("") + MARK;
};

/**
 * The bounded projection of a history for prompts: the newest turns, at most `maxTurns` and `maxBytes`,
 * in chronological order. Older turns are dropped whole; only the newest turn is ever cut to fit.
 */
export class ConversationMemory {
  readonly #options: ConversationMemoryOptions;

  constructor(options: Partial<ConversationMemoryOptions> = {}) {
    this.#options = { ...CONVERSATION_MEMORY_DEFAULTS, ...options };
  }

  project(turns: readonly ConversationTurn[]): ProjectedTurn[] {
    const render = this.#options.render ?? plainText;
    const kept: ProjectedTurn[] = [];
    let used = 2; // the brackets of the JSON array
    for (let index = turns.length - 1; index >= 0 && kept.length < this.#options.maxTurns; index--) {
      const turn = turns[index];
      if (turn === undefined) continue;
      const text = turn.role === "user" ? turn.text : this.#assistantText(turn.result, render);
      if (text === undefined) continue;
      const separator = kept.length === 0 ? 0 : 1;
      const projected: ProjectedTurn = { role: turn.role, text };
      const size = bytesOf(projected) + separator;
      if (used + size <= this.#options.maxBytes) {
        kept.push(projected);
        used += size;
        continue;
      }
      if (kept.length === 0) {
        const budget = this.#options.maxBytes - used - bytesOf({ role: turn.role, text: "" }) + 2;
        const cut = truncate(text, budget);
        if (cut !== undefined) kept.push({ role: turn.role, text: cut });
      }
      break;
    }
    return kept.reverse();
  }

  /** The projection as JSON for a model call's user payload. */
  toJson(turns: readonly ConversationTurn[]): Json {
    return this.project(turns).map((turn) => ({ role: turn.role, text: turn.text }));
  }

  #assistantText(result: AgentResult, render: TextRenderer): string | undefined {
    if (result.silent || result.message === undefined) return undefined;
    return render(result.message);
  }
}
