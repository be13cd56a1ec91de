import { z } from "zod";
import { AgentResult } from "../../../agent/agent-result.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { SIMPLE_POLICY } from "../../../agent/execution/policy-defaults.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import type { EventSink } from "../../../game/context-types.js";
import type { KillReport } from "../../../game/game-bridge.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import { detailCard } from "./quest-detail-card.js";
import type { QuestService } from "./quest-service.js";

/** The durable event type that counts a kill the host reported for kill tasks. */
export const QUEST_KILL_EVENT = "system:quest_kill";

interface KillInput {
  readonly entity: string;
  readonly entityId: string;
}
export const QUEST_KILL_ACTION = ActionType.of<KillInput>(
  "system:quest_kill",
  codec(
    z
      .object({
        entity: z.string().regex(/^[a-z0-9_.-]+:[a-z0-9_./-]+$/),
        entityId: z.string().min(1).max(64),
      })
      .strict() as z.ZodType<KillInput>,
  ),
);

/** The kill event of one killed entity: its id keeps a kill reported twice from counting twice. */
export const questKillEventId = (owner: Identifier, kill: KillReport): string =>
  `${owner}/kill/${kill.playerId}/${kill.entityId}`;

/**
 * Queues each kill the host reports as a durable event (waiting while the player's quests feature is off); only
 * entity types some kill task names are queued. Returns the unsubscribe.
 */
export const forwardKills = (options: {
  readonly owner: Identifier;
  readonly service: QuestService;
  readonly events: EventSink;
  readonly onKill: (listener: (kill: KillReport) => void) => () => void;
  readonly failed: (error: unknown) => void;
}): (() => void) => {
  const hunted = new Set(
    [...options.service.book.quests.values()].flatMap((quest) =>
      quest.tasks.flatMap((task) => (task.type === "kill" && task.entity !== undefined ? [task.entity] : [])),
    ),
  );
  if (hunted.size === 0) return () => {};
  return options.onKill((kill) => {
    if (!hunted.has(kill.entity)) return;
    options.events
      .submit({
        id: questKillEventId(options.owner, kill),
        eventType: QUEST_KILL_EVENT,
        action: QUEST_KILL_ACTION.action({ entity: kill.entity, entityId: kill.entityId.slice(0, 64) }),
        playerId: kill.playerId,
        owner: options.owner.toString(),
      })
      .catch(options.failed);
  });
};

/**
 * `system:quest_kill`: counts one reported kill for the kill tasks of quests the player can work on (once per
 * entity), and shows the quest card when that completed a quest. No tool, no model: a counter in player storage.
 */
export class QuestKillModule extends AbstractAgentModule<KillInput> {
  constructor(private readonly service: QuestService) {
    super({
      action: QUEST_KILL_ACTION,
      writes: "state",
      description: "Count a kill for FTB quest kill tasks.",
      interactive: false,
      event: true,
      eventTypes: [QUEST_KILL_EVENT],
      policy: { ...SIMPLE_POLICY, modelCalls: 0, toolCalls: 0, steps: 1, writeSteps: 0 },
    });
  }

  override async run(input: KillInput, context: ExecutionContext): Promise<AgentResult> {
    const advanced = await this.service.recordKill(context.playerId, input.entity, input.entityId);
    if (advanced === 0) return AgentResult.success(undefined);
    const recorded = await this.service.record(context.playerId);
    const quest = recorded.completed[0];
    if (quest === undefined) return AgentResult.success(undefined);
    const state = await this.service.state(context.playerId);
    return detailCard(this.service, context, this.service.detail(state, quest, context.locale), recorded);
  }
}
