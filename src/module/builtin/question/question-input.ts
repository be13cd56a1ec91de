import { z } from "zod";
import { ActionType } from "../../../agent/module/action-type.js";
import { codec } from "../../../util/codec.js";

/** A knowledge question; `allowWeb` is this request's own permission to search the web when local knowledge is empty. */
export interface QuestionInput {
  readonly text: string;
  readonly allowWeb: boolean;
}

export const QUESTION_INPUT = codec<QuestionInput>(
  z.object({
    text: z.string().trim().min(1).max(2_000).describe("The player's question in their own words."),
    allowWeb: z
      .boolean()
      .default(false)
      .describe(
        "True only when you are very sure the current request itself asks to search the internet; otherwise false.",
      ),
  }) as unknown as z.ZodType<QuestionInput>,
);

/** `system:question`. */
export const QUESTION_ACTION = ActionType.of("system:question", QUESTION_INPUT);
