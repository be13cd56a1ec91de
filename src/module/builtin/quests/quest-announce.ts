import { z } from "zod";
import { AgentResult } from "../../../agent/agent-result.js";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { present } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { SIMPLE_POLICY } from "../../../agent/execution/policy-defaults.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { literal, translatable } from "../../../agent/text.js";
import { GameEventTypes } from "../../../game/game-events.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import type { QuestService } from "./quest-service.js";

/** What a rule gives the announcement: nothing of its own; the game event (quest or chapter id) is added. */
interface AnnounceInput {
  readonly event?: { readonly type: string; readonly quest?: string; readonly chapter?: string };
}
const ANNOUNCE_ACTION = ActionType.of<AnnounceInput>(
  "system:quest_announce",
  codec(
    z
      .object({
        event: z
          .object({
            type: z.string(),
            quest: z.string().max(64).optional(),
            chapter: z.string().max(64).optional(),
          })
          .strict()
          .optional(),
      })
      .strict() as unknown as z.ZodType<AnnounceInput>,
  ),
);

const cardSchema = z.object({ kind: z.enum(["quest", "chapter"]), title: z.string().max(256) });

/** "★ Quest completed: …" / "★ Chapter completed: …", narrated as a title (high priority). */
export const QUEST_ANNOUNCE_CARD = CardType.of<z.infer<typeof cardSchema>>(
  "system:quest_announce",
  codec(cardSchema),
  (data) =>
    CardBuilder.of(`system.quests.announce.${data.kind}`, literal(data.title)).withSpeech(
      translatable(`system.quests.announce.${data.kind}.speech`, literal(data.title)),
      { priority: "high" },
    ),
);

/**
 * `system:quest_announce`: started by an advancement rule when a quest or chapter completes (the default rules
 * `quest_narration` and `chapter_narration`): a short card with its narration, titles in the player's language.
 * Reads only; a quest or chapter the pack no longer has ends silently.
 */
export class QuestAnnounceModule extends AbstractAgentModule<AnnounceInput> {
  constructor(
    owner: Identifier,
    private readonly service: QuestService,
  ) {
    super({
      action: ANNOUNCE_ACTION,
      writes: "state",
      description: "Announce a completed quest or chapter with narration (advancement rules).",
      owner,
      interactive: false,
      event: true,
      eventTypes: [GameEventTypes.QUEST_COMPLETED, GameEventTypes.CHAPTER_COMPLETED],
      eventInput: true,
      policy: { ...SIMPLE_POLICY, modelCalls: 0, toolCalls: 0, steps: 2, writeSteps: 0 },
    });
  }

  override async run(input: AnnounceInput, context: ExecutionContext): Promise<AgentResult> {
    const event = input.event;
    const book = this.service.book;
    const quest = event?.quest === undefined ? undefined : book.quests.get(event.quest);
    if (quest !== undefined)
      return AgentResult.success(
        undefined,
        present(
          QUEST_ANNOUNCE_CARD.card({ kind: "quest", title: this.service.title(quest, context.locale) }),
        ),
      );
    const chapter = event?.chapter === undefined ? undefined : book.chapters.get(event.chapter);
    if (chapter !== undefined)
      return AgentResult.success(
        undefined,
        present(
          QUEST_ANNOUNCE_CARD.card({
            kind: "chapter",
            title: this.service.chapterName(chapter, context.locale),
          }),
        ),
      );
    return AgentResult.success();
  }
}
