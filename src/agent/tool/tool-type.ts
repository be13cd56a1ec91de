import type { Codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";

/** The type of one tool: its id with its input and output codecs (ToolRegistry.Type of the seeds). */
export class ToolType<I, O> {
  private constructor(
    readonly id: Identifier,
    readonly input: Codec<I>,
    readonly output: Codec<O>,
  ) {}

  static of<I, O>(id: Identifier | string, input: Codec<I>, output: Codec<O>): ToolType<I, O> {
    return new ToolType(typeof id === "string" ? Identifier.parse(id) : id, input, output);
  }

  toString(): string {
    return this.id.toString();
  }
}

/** Any tool type, for collections. */
export type AnyToolType = ToolType<unknown, unknown>;
