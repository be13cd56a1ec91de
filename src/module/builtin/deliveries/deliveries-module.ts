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
import type { HeldEffect, HeldEffects } from "./deliveries-service.js";
import { deliveryItems, deliveryRef, localTime } from "./delivery-lines.js";

/** How many recent event tasks `redeliver <ref>` searches for a FAILED one. */
const FAILED_SEARCHED = 500;

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
  /** A network's effects held for an admin (its shared outbox); absent on a single server. */
  readonly held?: HeldEffects | undefined;
  /** A player's name for the list (the UUID when unknown). */
  readonly playerName: (playerId: string) => string;
  readonly catalog: ItemCatalog;
  readonly clock: GameClock;
}

/** One delivery an admin settles: a task of this server's journal, or an effect of the network's outbox. */
type Held =
  | {
      readonly kind: "task";
      readonly ref: string;
      readonly playerId: string;
      readonly task: UnconfirmedEvent;
    }
  | { readonly kind: "effect"; readonly ref: string; readonly playerId: string; readonly effect: HeldEffect }
  /** A FAILED event task (`/system events` shows its ref): only `redeliver` applies, which runs it again. */
  | {
      readonly kind: "failed";
      readonly ref: string;
      readonly playerId: string;
      readonly task: { readonly id: string };
    };

/**
 * `/system deliveries [player]`: the admin's view of deliveries whose give could not be confirmed (a crash while
 * giving), with player, items, time and task id, optionally of one player; `redeliver <ref>` gives them again as
 * a new durable task, `done <ref>` records that the admin found them delivered. `<ref>` is the short reference
 * the list shows or the task id. `redeliver` also takes the ref `/system events` shows for a FAILED task (a
 * welcome kit that did not fit): it runs again in place, so what it gave before is never given twice. On a network the list also holds the shared outbox's effects held for an admin
 * (with the server that held each and why), settled the same way: given again by the server that hosts the
 * player, or marked done. Admin only: the command node `requires` the operator level and the run checks it again.
 */
export class DeliveriesModule extends AbstractAgentModule<DeliveriesInput> {
  constructor(private readonly options: DeliveriesModuleOptions) {
    super({
      action: DELIVERIES_ACTION,
      writes: "state",
      description: "List and resolve deliveries whose effect could not be confirmed (admin).",
      routing: ModuleRouting.structuredOnly<DeliveriesInput>().command(command),
    });
  }

  async run(input: DeliveriesInput, context: ExecutionContext): Promise<AgentResult> {
    if (context.permissionLevel < ADMIN_LEVEL) throw new AgentException(AgentFailure.PERMISSION_DENIED);
    const { deliveries, held } = this.options;
    if (input.op === "list") {
      const wanted = input.player?.toLowerCase();
      const entries = (await this.#entries()).filter(
        (entry) =>
          wanted === undefined ||
          entry.playerId === wanted ||
          this.options.playerName(entry.playerId).toLowerCase() === wanted,
      );
      return AgentResult.success(this.#list(entries, context.locale));
    }
    const entry = await this.#find(input.ref);
    const player = this.options.playerName(entry.playerId);
    if (entry.kind === "effect") {
      // settled once: another admin (on any server) may have settled it since it was listed
      if (!(await held?.resolve(entry.effect.id, input.op)))
        throw new AgentException(AgentFailure.NOT_FOUND.with(input.ref));
      return AgentResult.success(
        input.op === "done"
          ? translatable("system.deliveries.done", entry.ref, player)
          : translatable("system.deliveries.network_redelivered", entry.ref, player),
      );
    }
    if (entry.kind === "failed") {
      if (input.op === "done") throw new AgentException(AgentFailure.NOT_FOUND.with(input.ref));
      await deliveries.redeliver(entry.task.id);
      return AgentResult.success(translatable("system.deliveries.retried", entry.ref, player));
    }
    if (input.op === "done") {
      await deliveries.markDone(entry.task.id);
      return AgentResult.success(translatable("system.deliveries.done", entry.ref, player));
    }
    const redelivery = await deliveries.redeliver(entry.task.id);
    return AgentResult.success(
      translatable("system.deliveries.redelivered", entry.ref, player, literalText(redelivery)),
    );
  }

  /** This server's unconfirmed tasks, then the network's held effects. */
  async #entries(): Promise<Held[]> {
    const tasks = this.options.deliveries
      .unconfirmed()
      .map((task): Held => ({ kind: "task", ref: deliveryRef(task.id), playerId: task.playerId, task }));
    const effects = ((await this.options.held?.list()) ?? []).map(
      (effect): Held => ({ kind: "effect", ref: deliveryRef(effect.key), playerId: effect.playerId, effect }),
    );
    return [...tasks, ...effects];
  }

  #list(entries: readonly Held[], locale: string): Text {
    if (entries.length === 0) return translatable("system.deliveries.empty");
    const { catalog, clock, playerName } = this.options;
    const lines = entries.map((entry) =>
      entry.kind === "failed"
        ? literalText(entry.ref)
        : entry.kind === "task"
          ? translatable(
              "system.deliveries.line",
              entry.ref,
              literalText(playerName(entry.playerId)),
              deliveryItems(entry.task.input, catalog, locale),
              localTime(entry.task.updatedAt, clock.timeZone),
              literalText(entry.task.id),
            )
          : translatable(
              "system.deliveries.network_line",
              entry.ref,
              literalText(playerName(entry.playerId)),
              deliveryItems(entry.effect.payload, catalog, locale),
              localTime(entry.effect.heldAt, clock.timeZone),
              literalText(entry.effect.server ?? "-"),
              entry.effect.reason === undefined
                ? literalText(entry.effect.note ?? "-")
                : translatable(`system.deliveries.reason.${entry.effect.reason}`),
            ),
    );
    return translatable("system.deliveries.list", entries.length, joinLines(lines));
  }

  /**
   * The held delivery a reference names (its short reference, task id or outbox key), else a recent FAILED event
   * task it names; NOT_FOUND otherwise.
   */
  async #find(ref: string): Promise<Held> {
    const failed = this.options.deliveries
      .recent(FAILED_SEARCHED)
      .filter((task) => task.state === "FAILED")
      .map((task): Held => ({ kind: "failed", ref: deliveryRef(task.id), playerId: task.playerId, task }));
    const entry = [...(await this.#entries()), ...failed].find(
      (candidate) =>
        candidate.ref === ref.toLowerCase() ||
        (candidate.kind === "effect" ? candidate.effect.key : candidate.task.id) === ref,
    );
    if (entry === undefined) throw new AgentException(AgentFailure.NOT_FOUND.with(ref));
    return entry;
  }
}
