import type { Json } from "../../util/codec.js";
import type { ToolType } from "./tool-type.js";

/** A tool result kept typed (input and output), projected to JSON only when shown to a model. */
export class ToolObservation<I, O> {
  constructor(
    readonly type: ToolType<I, O>,
    readonly input: I,
    readonly output: O,
    private readonly projection: (output: O, input: I) => Json = (output) => type.output.encode(output),
  ) {}

  /** The JSON the model sees for this observation. */
  project(): Json {
    return {
      tool: this.type.id.toString(),
      input: this.type.input.encode(this.input),
      result: this.projection(this.output, this.input),
    };
  }
}
