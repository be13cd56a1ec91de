import { z } from "zod";
import type { Presentation } from "../../../agent/agent-result.js";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal } from "../../../agent/text.js";
import type { ToolObservation } from "../../../agent/tool/tool-observation.js";
import { codec } from "../../../util/codec.js";

/** One lookup the analysis made, in words: the tool and the names it found (never its JSON). */
export interface ReasoningStep {
  readonly tool: string;
  readonly found: readonly string[];
}

export interface ReasoningCardData {
  readonly text: string;
  readonly steps: readonly ReasoningStep[];
  /** True when the analysis stopped before its final answer. */
  readonly incomplete: boolean;
}

export const REASONING_CARD_CODEC = codec<ReasoningCardData>(
  z.object({
    text: z.string().max(20_000),
    steps: z
      .array(z.object({ tool: z.string().max(256), found: z.array(z.string().max(300)).max(16) }))
      .max(32),
    incomplete: z.boolean(),
  }) as z.ZodType<ReasoningCardData>,
);

const stepLine = (steps: readonly ReasoningStep[]): string =>
  steps
    .map((step) => (step.found.length === 0 ? step.tool : `${step.tool}: ${step.found.join(", ")}`))
    .join("\n");

/** `system:reasoning_answer`: the answer, or, when incomplete, what was looked up so far. */
export const REASONING_CARD = CardType.of<ReasoningCardData>(
  "system:reasoning_answer",
  REASONING_CARD_CODEC,
  (data) =>
    data.incomplete
      ? CardBuilder.of("system.reasoning.card.incomplete", literal(stepLine(data.steps)))
      : CardBuilder.of("system.reasoning.card.answer", literal(data.text)),
);

export const reasoningPresentation = (data: ReasoningCardData): Presentation => ({
  type: REASONING_CARD.id.toString(),
  data: REASONING_CARD.codec.encode(data),
});

/** Names found in an output: `title`/`name` fields of the top level and of its first list (bounded). */
const namesIn = (output: unknown): string[] => {
  if (typeof output !== "object" || output === null) return [];
  const record = output as Record<string, unknown>;
  const own = ["title", "name"].flatMap((key) =>
    typeof record[key] === "string" ? [record[key] as string] : [],
  );
  const list = Object.values(record).find(Array.isArray) as unknown[] | undefined;
  const listed = (list ?? []).flatMap((item) => {
    if (typeof item !== "object" || item === null) return typeof item === "string" ? [item] : [];
    const entry = item as Record<string, unknown>;
    const name = entry.title ?? entry.name;
    return typeof name === "string" ? [name] : [];
  });
  return [...own, ...listed].map((name) => name.slice(0, 300)).slice(0, 16);
};

/** The steps of a loop as a player may see them. */
export const stepsOf = (observations: readonly ToolObservation<unknown, unknown>[]): ReasoningStep[] =>
  observations
    .slice(0, 32)
    .map((observation) => ({ tool: observation.type.id.toString(), found: namesIn(observation.output) }));
