import { z } from "zod";
import { AgentResult } from "../../../agent/agent-result.js";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { present } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { SIMPLE_POLICY } from "../../../agent/execution/policy-defaults.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { literal } from "../../../agent/text.js";
import { GAME_EVENT_TYPES } from "../../../game/game-events.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";

/** The admin's message per language (`en_us`, `zh_cn`, …); the player's language, else English, else the first. */
interface AnnounceInput {
  readonly message: Readonly<Record<string, string>>;
  /** Narrated (when the player turned speech on) as a title: high priority. */
  readonly narrate: boolean;
}
const ANNOUNCE_ACTION = ActionType.of<AnnounceInput>(
  "system:announce",
  codec(
    z
      .object({
        message: z
          .record(
            z.string().regex(/^[a-z]{2}_[a-z]{2}$/, "a language such as en_us"),
            z.string().min(1).max(256),
          )
          .refine((messages) => Object.keys(messages).length > 0, "at least one language"),
        narrate: z.boolean().default(false),
      })
      .strict() as unknown as z.ZodType<AnnounceInput>,
  ),
);

const cardSchema = z.object({ text: z.string().max(256), narrate: z.boolean() });

/** The admin's message, shown as written (never formatted: it carries no arguments). */
export const ANNOUNCE_CARD = CardType.of<z.infer<typeof cardSchema>>(
  "system:announce",
  codec(cardSchema),
  (data) => {
    const builder = CardBuilder.of("system.announce", literal(data.text));
    return data.narrate ? builder.withSpeech(literal(data.text), { priority: "high" }) : builder;
  },
);

/**
 * `system:announce`: shows the message an advancement rule gives (per language) to the player the event is about,
 * on any game event (a death, a dimension change, a playtime milestone…). Reads and writes nothing.
 */
export class AnnounceModule extends AbstractAgentModule<AnnounceInput> {
  constructor(owner: Identifier) {
    super({
      action: ANNOUNCE_ACTION,
      writes: "state",
      description: "Show a player the rule's message (advancement rules).",
      owner,
      interactive: false,
      event: true,
      eventTypes: [...GAME_EVENT_TYPES],
      policy: { ...SIMPLE_POLICY, modelCalls: 0, toolCalls: 0, steps: 2, writeSteps: 0 },
    });
  }

  override async run(input: AnnounceInput, context: ExecutionContext): Promise<AgentResult> {
    const messages = input.message;
    const text = messages[context.locale] ?? messages.en_us ?? Object.values(messages)[0] ?? "";
    return AgentResult.success(undefined, present(ANNOUNCE_CARD.card({ text, narrate: input.narrate })));
  }
}
