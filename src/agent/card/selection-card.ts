import { z } from "zod";
import { codec, type Json } from "../../util/codec.js";
import { CardBuilder } from "./card-builder.js";
import { CardType } from "./card-type.js";

/** One read-only choice: its label and the encoded action a click sends back as a new structured request. */
export interface SelectionCandidate {
  readonly labelKey: string;
  readonly labelArgs: readonly string[];
  /** The module (action type) id. */
  readonly action: string;
  /** The input encoded with the module's codec. */
  readonly input: Json;
}

/** A card offering read-only candidates (local fallback and model clarify); shown, never executed by itself. */
export interface SelectionCardData {
  /** The translation key of the card's prompt ("pick one", "did you mean"). */
  readonly promptKey: string;
  readonly candidates: readonly SelectionCandidate[];
}

const JSON_VALUE: z.ZodType<Json> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(JSON_VALUE),
    z.record(z.string(), JSON_VALUE),
  ]),
) as z.ZodType<Json>;

export const SELECTION_CARD_CODEC = codec<SelectionCardData>(
  z.object({
    promptKey: z.string().min(1).max(256),
    candidates: z
      .array(
        z.object({
          labelKey: z.string().min(1).max(256),
          labelArgs: z.array(z.string().max(256)).max(8),
          action: z.string().min(1).max(256),
          input: JSON_VALUE,
        }),
      )
      .max(16),
  }) as z.ZodType<SelectionCardData>,
);

/** Card button arguments of a candidate: the encoded input as one JSON string (the default button adapter). */
export const candidateButtonArgs = (candidate: SelectionCandidate): string[] => [
  JSON.stringify(candidate.input),
];

/** `system:selection`: a prompt and one button per candidate, labelled with the candidate's key and arguments. */
export const SELECTION_CARD = CardType.of<SelectionCardData>(
  "system:selection",
  SELECTION_CARD_CODEC,
  (data) => {
    const builder = CardBuilder.of(data.promptKey);
    for (const candidate of data.candidates)
      builder.labelledButton({
        labelKey: candidate.labelKey,
        labelArgs: candidate.labelArgs,
        action: candidate.action,
        args: candidateButtonArgs(candidate),
      });
    return builder;
  },
);
