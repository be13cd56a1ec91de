import type { Codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";

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
