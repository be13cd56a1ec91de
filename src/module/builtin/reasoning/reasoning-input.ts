import { z } from "zod";
import { ActionType } from "../../../agent/module/action-type.js";
import { codec } from "../../../util/codec.js";

/** A request that needs several read-only lookups combined. */
export interface ReasoningInput {
  readonly request: string;
}

export const REASONING_INPUT = codec<ReasoningInput>(
  z.object({
    request: z.string().trim().min(1).max(2_000).describe("The player's request in their own words."),
  }),
);

/** `system:reasoning`. */
export const REASONING_ACTION = ActionType.of("system:reasoning", REASONING_INPUT);
