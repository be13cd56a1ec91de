import { argument, greedyString, literal, word } from "@jsprismarine/brigadier";
import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { joinLines } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { CommandSource } from "../../../agent/command/command-source.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import type { UnconfirmedEvent, UnconfirmedEvents } from "../../../agent/execution/unconfirmed-events.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { literal as literalText, type Text, translatable } from "../../../agent/text.js";
import type { GameClock } from "../../../game/context-types.js";
import type { ItemCatalog } from "../../../game/data/item-catalog.js";
import { codec } from "../../../util/codec.js";
import { ADMIN_LEVEL, isAdmin } from "../core/core-services.js";
import { deliveryItems, deliveryRef, localTime } from "./delivery-lines.js";

/** `deliveries [player]` lists; `redeliver <ref>` gives again; `done <ref>` resolves without giving. */
export type DeliveriesInput =
  | { readonly op: "list"; readonly player?: string | undefined }
  | { readonly op: "redeliver"; readonly ref: string }
  | { readonly op: "done"; readonly ref: string };

export const DELIVERIES_ACTION = ActionType.of(
  "system:deliveries",
  codec<DeliveriesInput>(
    z.union([
      z.object({ op: z.literal("list"), player: z.string().min(1).max(64).optional() }),
      z.object({ op: z.enum(["redeliver", "done"]), ref: z.string().min(1).max(512) }),
    ]) as z.ZodType<DeliveriesInput>,
  ),
);

const resolution = (op: "redeliver" | "done", alias: string) =>
  literal<CommandSource>(alias).then(
    argument<CommandSource, string>("ref", greedyString()).executes(async (context) => {
      context.getSource().action({ op, ref: String(context.getArgument("ref")).trim() });
      return 1;
    }),
  );

const command = AgentCommand.custom<DeliveriesInput>(["deliveries", "发放"], (name) =>
  literal<CommandSource>(name)
    .requires(isAdmin)
    .executes(async (context) => {
      context.getSource().action({ op: "list" });
      return 1;
    })
    .then(
      argument<CommandSource, string>("player", word()).executes(async (context) => {
        context.getSource().action({ op: "list", player: String(context.getArgument("player")) });
        return 1;
      }),
    )
    .then(resolution("redeliver", "redeliver"))
    .then(resolution("redeliver", "补发"))
    .then(resolution("done", "done"))
    .then(resolution("done", "已处理")),
);

export interface DeliveriesModuleOptions {
  readonly deliveries: UnconfirmedEvents;
  /** A player's name for the list (the UUID when unknown). */
  readonly playerName: (playerId: string) => string;
  readonly catalog: ItemCatalog;
  readonly clock: GameClock;
}

/**
 * `/system deliveries [player]`: the admin's view of deliveries whose give could not be confirmed (a crash while
 * giving), with player, items, time and task id, optionally of one player; `redeliver <ref>` gives them again as a new durable task, `done <ref>`
 * records that the admin found them delivered. `<ref>` is the short reference the list shows or the task id.
 * Admin only: the command node `requires` the operator level and the run checks it again.
 */
export class DeliveriesModule extends AbstractAgentModule<DeliveriesInput> {
  constructor(private readonly options: DeliveriesModuleOptions) {
    super({
      action: DELIVERIES_ACTION,
      description: "List and resolve deliveries whose effect could not be confirmed (admin).",
      routing: ModuleRouting.structuredOnly<DeliveriesInput>().command(command),
    });
  }

  async run(input: DeliveriesInput, context: ExecutionContext): Promise<AgentResult> {
    if (context.permissionLevel < ADMIN_LEVEL) throw new AgentException(AgentFailure.PERMISSION_DENIED);
    const { deliveries } = this.options;
    if (input.op === "list") {
      const wanted = input.player?.toLowerCase();
      const tasks = deliveries
        .unconfirmed()
        .filter(
          (task) =>
            wanted === undefined ||
            task.playerId === wanted ||
            this.options.playerName(task.playerId).toLowerCase() === wanted,
        );
      return AgentResult.success(this.#list(tasks, context.locale));
    }
    const task = this.#find(input.ref);
    const player = this.options.playerName(task.playerId);
    if (input.op === "done") {
      await deliveries.markDone(task.id);
      return AgentResult.success(translatable("system.deliveries.done", deliveryRef(task.id), player));
    }
    const redelivery = await deliveries.redeliver(task.id);
    return AgentResult.success(
      translatable("system.deliveries.redelivered", deliveryRef(task.id), player, literalText(redelivery)),
    );
  }

  #list(tasks: readonly UnconfirmedEvent[], locale: string): Text {
    if (tasks.length === 0) return translatable("system.deliveries.empty");
    const lines = tasks.map((task) =>
      translatable(
        "system.deliveries.line",
        deliveryRef(task.id),
        literalText(this.options.playerName(task.playerId)),
        deliveryItems(task, this.options.catalog, locale),
        localTime(task.updatedAt, this.options.clock.timeZone),
        literalText(task.id),
      ),
    );
    return translatable("system.deliveries.list", tasks.length, joinLines(lines));
  }

  /** The unconfirmed task a reference names (its short reference or its id); NOT_FOUND otherwise. */
  #find(ref: string): UnconfirmedEvent {
    const task = this.options.deliveries
      .unconfirmed()
      .find((candidate) => candidate.id === ref || deliveryRef(candidate.id) === ref.toLowerCase());
    if (task === undefined) throw new AgentException(AgentFailure.NOT_FOUND.with(ref));
    return task;
  }
}
