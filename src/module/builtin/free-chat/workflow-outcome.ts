import { z } from "zod";
import type { AgentResult } from "../../../agent/agent-result.js";
import type { CardRegistry } from "../../../agent/card/card-registry.js";
import { cardForResult } from "../../../agent/card/message-card.js";
import { formatText } from "../../../agent/text-format.js";
import { codec } from "../../../util/codec.js";
import type { Languages } from "../../../util/language.js";

/** The most characters of a card's text the model reads. */
const MAX_CARD_TEXT = 2_000;

/** A result's card as the player reads it: its text and button labels in their language. */
export interface RenderedCard {
  readonly text: string;
  readonly buttons: readonly string[];
}

/** Renders a result's card for one locale; undefined for silent results. */
export type RenderCard = (result: AgentResult, locale: string) => RenderedCard | undefined;

/** What free chat's model reads of one workflow it ran: the card the player saw (or the failure), never more. */
export interface WorkflowOutcome {
  readonly workflow: string;
  readonly status: "succeeded" | "partially_succeeded" | "failed";
  /** True when the card was shown to the player (a failure is left to the answer). */
  readonly shown: boolean;
  readonly card: string;
  readonly buttons: readonly string[];
  readonly failure?: string;
}

export const WORKFLOW_OUTCOME = codec<WorkflowOutcome>(
  z.object({
    workflow: z.string().max(256),
    status: z.enum(["succeeded", "partially_succeeded", "failed"]),
    shown: z.boolean(),
    card: z.string().max(MAX_CARD_TEXT + 1),
    buttons: z.array(z.string().max(200)).max(16),
    failure: z.string().max(128).optional(),
  }) as z.ZodType<WorkflowOutcome>,
);

export const workflowOutcome = (
  workflow: string,
  result: AgentResult,
  view: RenderedCard | undefined,
  shown: boolean,
): WorkflowOutcome => {
  const text = view?.text ?? "";
  return {
    workflow,
    status: result.isFailure() ? "failed" : result.isPartial() ? "partially_succeeded" : "succeeded",
    shown,
    card: text.length <= MAX_CARD_TEXT ? text : `${text.slice(0, MAX_CARD_TEXT)}…`,
    buttons: (view?.buttons ?? []).slice(0, 16).map((label) => label.slice(0, 200)),
    ...(result.failure === undefined ? {} : { failure: result.failure.code.slice(0, 128) }),
  };
};

/** Renders cards as the chat host does (registered card, else a message card), without issuing buttons. */
export const cardRenderer =
  (cards: CardRegistry, languages: Languages): RenderCard =>
  (result, locale) => {
    const builder = cardForResult(result, cards);
    if (builder === undefined) return undefined;
    const view = builder.build();
    return {
      text: formatText(languages, locale, { kind: "translatable", key: view.template, args: view.arguments }),
      buttons: view.buttons.map((button) =>
        languages.format(locale, button.labelKey, [...(button.labelArgs ?? [])]),
      ),
    };
  };
