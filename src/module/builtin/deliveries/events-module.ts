import { argument, literal, word } from "@jsprismarine/brigadier";
import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { joinLines } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { CommandSource } from "../../../agent/command/command-source.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import type { EventTaskSummary, UnconfirmedEvents } from "../../../agent/execution/unconfirmed-events.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { literal as literalText, type Text, translatable } from "../../../agent/text.js";
import type { GameClock } from "../../../game/context-types.js";
import { codec } from "../../../util/codec.js";
import { ADMIN_LEVEL, isAdmin, type KnownPlayer } from "../core/core-services.js";
import { deliveryRef, localTime } from "./delivery-lines.js";

/** How many tasks `/system events` lists. */
export const EVENTS_LISTED = 15;

export interface EventsInput {
  readonly player?: string | undefined;
}

export const EVENTS_ACTION = ActionType.of(
  "system:events",
  codec<EventsInput>(z.object({ player: z.string().min(1).max(64).optional() }) as z.ZodType<EventsInput>),
);

const command = AgentCommand.custom<EventsInput>(["events", "事件"], (name) =>
  literal<CommandSource>(name)
    .requires(isAdmin)
    .executes(async (context) => {
      context.getSource().action({});
      return 1;
    })
    .then(
      argument<CommandSource, string>("player", word()).executes(async (context) => {
        context.getSource().action({ player: String(context.getArgument("player")) });
        return 1;
      }),
    ),
);

/**
 * `/system events [player]` (admin): the latest durable event tasks, newest first, each with its state, the rule
 * that started it (or the workflow, for a feature's own deliveries), its event type, the player and when it last
 * changed. Admin only: the command node `requires` the operator level and the run checks it again.
 */
export class EventsModule extends AbstractAgentModule<EventsInput> {
  constructor(
    private readonly options: {
      readonly tasks: UnconfirmedEvents;
      readonly resolvePlayer: (nameOrUuid: string) => KnownPlayer | undefined;
      readonly clock: GameClock;
    },
  ) {
    super({
      action: EVENTS_ACTION,
      writes: "state",
      description: "List recent event tasks with their rule and state (admin).",
      routing: ModuleRouting.structuredOnly<EventsInput>().command(command),
    });
  }

  async run(input: EventsInput, context: ExecutionContext): Promise<AgentResult> {
    if (context.permissionLevel < ADMIN_LEVEL) throw new AgentException(AgentFailure.PERMISSION_DENIED);
    const player = input.player === undefined ? undefined : this.options.resolvePlayer(input.player);
    if (input.player !== undefined && player === undefined)
      throw new AgentException(AgentFailure.NOT_FOUND.with(input.player));
    const tasks = this.options.tasks.recent(EVENTS_LISTED, player?.uuid);
    return AgentResult.success(this.#list(tasks));
  }

  #list(tasks: readonly EventTaskSummary[]): Text {
    if (tasks.length === 0) return translatable("system.events.empty");
    const lines = tasks.map((task) =>
      translatable(
        "system.events.line",
        task.state === "FAILED"
          ? translatable("system.events.state.failed_ref", deliveryRef(task.id))
          : translatable(`system.events.state.${task.state.toLowerCase()}`),
        literalText(task.rule === undefined ? task.type : `${task.rule} → ${task.type}`),
        literalText(task.eventType ?? "-"),
        literalText(this.options.resolvePlayer(task.playerId)?.name ?? task.playerId),
        localTime(task.updatedAt, this.options.clock.timeZone),
      ),
    );
    const list = translatable("system.events.list", tasks.length, joinLines(lines));
    return tasks.some((task) => task.state === "FAILED")
      ? joinLines([list, translatable("system.events.failed_hint")])
      : list;
  }
}
