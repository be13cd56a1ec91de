import type { Codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { type Validation, valid } from "../../util/validation.js";

/** Actions made by `ActionType.decoded`: their input is already their type's decoded value. */
const DECODED = new WeakSet<AgentAction>();

/** The registered type of a workflow input (AgentAction): its id and the one codec shared by every entry point. */
export class ActionType<I> {
  private constructor(
    readonly id: Identifier,
    readonly codec: Codec<I>,
  ) {}

  static of<I>(id: Identifier | string, codec: Codec<I>): ActionType<I> {
    return new ActionType(typeof id === "string" ? Identifier.parse(id) : id, codec);
  }

  /** An action of this type carrying an input. */
  action(input: I): AgentAction<I> {
    return { type: this, input };
  }

  /**
   * An action whose input this type's codec has just decoded (a parsed command): the engine runs it without
   * decoding the input a second time.
   */
  decoded(input: I): AgentAction<I> {
    const action = { type: this, input };
    DECODED.add(action);
    return action;
  }

  /** The action's input as this type's codec decodes it; an input it decoded already is taken as it is. */
  decode(action: AgentAction): Validation<I> {
    if (action.type === (this as AnyActionType) && DECODED.has(action)) return valid(action.input as I);
    return this.codec.decode(action.input);
  }

  toString(): string {
    return this.id.toString();
  }
}

/** A typed request to run a workflow; buttons, commands, semantic and model routing all produce one. */
export interface AgentAction<I = unknown> {
  readonly type: ActionType<I>;
  readonly input: I;
}

export type AnyActionType = ActionType<unknown>;
