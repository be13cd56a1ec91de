import type { ExperienceGrant, GiveOutcome, GiveStack, TakeOutcome } from "../../../game/game-bridge.js";
import type { InventorySnapshot } from "../../../game/game-snapshots.js";
import type { Logger } from "../../../util/logger.js";
import type { Validation } from "../../../util/validation.js";
import { ITEM_ID, MAX_GIVE_COUNT } from "../rcon/command-arguments.js";
import { clearCommand, giveCommand } from "../rcon/item-commands.js";
import { type DataReply, dataGetEntityCommand, experienceAddCommand } from "../rcon/player-commands.js";
import type { RconCommand } from "../rcon/rcon-command.js";
import type { RconCommands } from "../rcon/rcon-commands.js";
import { RconError } from "../rcon/rcon-error.js";
import {
  carriedFromSnbt,
  fitsAll,
  type HeldStack,
  type ItemCatalog,
  slotsNeeded,
  totalsOf,
} from "./inventory-room.js";
import type { RconAvailability } from "./rcon-availability.js";
import type { SaveBatcher } from "./save-batcher.js";

/** How long a give waits to see the relayed slots change, when the gateway knows the inventory. */
const DEFAULT_CONFIRM_MILLIS = 2_000;
const CONFIRM_POLL_MILLIS = 25;

/** The player an effect is for: the name RCON commands take, and the inventory the relay observed (if any). */
export interface EffectTarget {
  readonly name: string;
  liveInventory(): InventorySnapshot | undefined;
}

/** The outcome of an RCON command that may have been the first to change something. */
class UnknownOutcome extends Error {
  override readonly name = "UnknownOutcome";
}

/** Nothing that could change anything was sent (RCON away, too slow, or refusing the command): still owed. */
class NotSent extends Error {
  override readonly name = "NotSent";
}

/** What `data get entity <player> Inventory` told: the carried stacks, no such player, or why it did not. */
type Held =
  | { readonly kind: "held"; readonly stacks: readonly HeldStack[] }
  | { readonly kind: "offline" }
  /** The backend cannot answer it here (unknown command, a reply System cannot read): asking again will not help. */
  | { readonly kind: "broken"; readonly cause: string }
  /** This time it did not answer (timeout, connection lost, no connection): a later attempt may. */
  | { readonly kind: "failed"; readonly cause: string };

type Refusal = Extract<GiveOutcome, { given: false }>;

/**
 * World effects through the backend's RCON: gives all-or-nothing (every stack checked for room first, on the
 * live inventory when the relay knows it, else on `data get entity <player> Inventory`), each give confirmed by
 * its reply (and by the relayed slots when they are observed), experience by `experience add`, takes by `clear`
 * after a count. An effect resolves only after a `save-all` that began after it finished (SaveBatcher). A refusal
 * changed nothing: anything that fails before the first change (the room check failing or timing out, RCON
 * unreachable, a command the backend does not know, the caller's signal) is `unavailable` — the reward is still
 * owed and waits. Only a failure after a command that changes something was sent rejects: its outcome is unknown
 * (the caller holds it for an admin, never repeats it). Every give not made is logged with its cause.
 */
export class RconEffects {
  #dataGetBroken = false;

  constructor(
    private readonly options: {
      readonly commands: RconCommands;
      readonly saves: SaveBatcher;
      readonly items: ItemCatalog;
      readonly logger: Logger;
      readonly confirmMillis?: number;
      /** Tells when RCON cannot be reached (gives then wait at once) and is told of each failed connection. */
      readonly availability?: RconAvailability;
    },
  ) {}

  async give(
    player: EffectTarget,
    stacks: readonly GiveStack[],
    experience?: ExperienceGrant,
    signal?: AbortSignal,
  ): Promise<GiveOutcome> {
    const outcome = await this.#give(player, stacks, experience, signal);
    if (!outcome.given)
      this.options.logger.warn(
        `RCON: nothing given to ${player.name} (${stacks.map((stack) => `${stack.count} ${stack.item}`).join(", ") || "experience"}): ${outcome.cause ?? outcome.refusal}${outcome.refusal === "unavailable" ? "; it waits and is tried again" : ""}`,
      );
    return outcome;
  }

  async #give(
    player: EffectTarget,
    stacks: readonly GiveStack[],
    experience: ExperienceGrant | undefined,
    signal: AbortSignal | undefined,
  ): Promise<GiveOutcome> {
    const { items } = this.options;
    for (const stack of stacks)
      if (
        !ITEM_ID.test(stack.item) ||
        items.stackSize(stack.item) === undefined ||
        !Number.isInteger(stack.count) ||
        stack.count <= 0
      )
        return { given: false, refusal: "unknown_item", item: stack, cause: `unknown item ${stack.item}` };
    const before = player.liveInventory();
    const logins = new Set<number>();
    let changed = false;
    const step = async <R extends { readonly outcome: string }>(
      command: Validation<RconCommand<R>>,
      succeeded: (reply: R) => boolean,
    ): Promise<R> => {
      if (!command.success) throw new UnknownOutcome(command.error);
      if (signal?.aborted) {
        if (!changed) throw new NotSent("the gateway stopped before the give was sent");
        throw new UnknownOutcome("the gateway stopped after part of the effect was applied");
      }
      let reply: R;
      try {
        reply = await this.options.commands.run(command.value, signal === undefined ? {} : { signal });
      } catch (error) {
        if (!changed && error instanceof RconError && !error.sent) throw this.#notSent(error);
        throw new UnknownOutcome(
          `${describe(error)} after "${command.value.name}" was sent${changed ? " and part of the effect was applied" : ""}`,
        );
      }
      logins.add(this.options.commands.logins);
      if (!succeeded(reply)) {
        if (!changed && reply.outcome === "unknown_command")
          throw new NotSent(`the backend does not know "${command.value.name}" (unknown command)`);
        if (!changed) return reply;
        throw new UnknownOutcome(
          `"${command.value.name}" answered ${reply.outcome} after part of the effect`,
        );
      }
      changed = true;
      return reply;
    };
    try {
      const down = this.options.availability?.down;
      if (down !== undefined) throw new NotSent(`RCON cannot be reached (${down})`);
      const room = await this.#room(player, stacks, signal);
      if (room !== "fits") return room;
      // modded items first: only the backend can tell whether it knows them, and the first give may still refuse
      const ordered = [...stacks].sort(
        (left, right) =>
          Number(left.item.startsWith("minecraft:")) - Number(right.item.startsWith("minecraft:")),
      );
      for (const stack of ordered)
        for (let left = stack.count; left > 0; ) {
          const count = Math.min(left, MAX_GIVE_COUNT, (items.stackSize(stack.item) ?? 64) * 100);
          const reply = await step(
            giveCommand({ player: player.name, item: stack.item, count }),
            (reply) => reply.outcome === "given" && reply.count === count,
          );
          if (reply.outcome === "no_player") return offline(player);
          if (reply.outcome === "unknown_item")
            return {
              given: false,
              refusal: "unknown_item",
              item: stack,
              cause: `the backend has no ${stack.item}`,
            };
          if (reply.outcome !== "given" || reply.count !== count)
            throw new UnknownOutcome(`give answered ${reply.outcome}`);
          left -= count;
        }
      for (const [amount, unit] of [
        [experience?.points ?? 0, "points"],
        [experience?.levels ?? 0, "levels"],
      ] as const) {
        if (amount === 0) continue;
        const reply = await step(
          experienceAddCommand({ player: player.name, amount, unit }),
          (reply) => reply.outcome === "added",
        );
        if (reply.outcome === "no_player") return offline(player);
        if (reply.outcome !== "added") throw new UnknownOutcome(`experience answered ${reply.outcome}`);
      }
    } catch (error) {
      if (error instanceof NotSent) return { given: false, refusal: "unavailable", cause: error.message };
      throw error;
    }
    if (!changed) return { given: true };
    const saved = this.#saved(logins);
    if (before !== undefined) await this.#confirmSlots(player, before, stacks);
    await saved;
    return { given: true };
  }

  async take(player: EffectTarget, stacks: readonly GiveStack[], signal?: AbortSignal): Promise<TakeOutcome> {
    const wanted = new Map<string, number>();
    for (const stack of stacks) {
      if (!ITEM_ID.test(stack.item) || !Number.isInteger(stack.count) || stack.count <= 0)
        return { taken: false, refusal: "missing", item: stack };
      wanted.set(stack.item, (wanted.get(stack.item) ?? 0) + stack.count);
    }
    const down = this.options.availability?.down;
    if (down !== undefined)
      return { taken: false, refusal: "unavailable", cause: `RCON cannot be reached (${down})` };
    const held = await this.#held(player, signal);
    if (held.kind === "offline") return { taken: false, refusal: "offline" };
    if (held.kind !== "held")
      return { taken: false, refusal: "unavailable", cause: `cannot count the items held: ${held.cause}` };
    const totals = totalsOf(held.stacks);
    for (const [item, count] of wanted)
      if ((totals.get(item) ?? 0) < count) return { taken: false, refusal: "missing", item: { item, count } };
    const logins = new Set<number>();
    let changed = false;
    for (const [item, count] of wanted) {
      const command = clearCommand({ player: player.name, item, maxCount: count });
      if (!command.success) throw new UnknownOutcome(command.error);
      const reply = await this.options.commands.run(command.value).catch((error: unknown) => {
        if (!changed && error instanceof RconError && !error.sent) return this.#notSent(error);
        throw new UnknownOutcome(`${describe(error)} while taking items`);
      });
      if (reply instanceof NotSent) return { taken: false, refusal: "unavailable", cause: reply.message };
      logins.add(this.options.commands.logins);
      if (reply.outcome === "removed" && reply.count === count) {
        changed = true;
        continue;
      }
      if (!changed && (reply.outcome === "none" || reply.outcome === "no_player"))
        return reply.outcome === "none"
          ? { taken: false, refusal: "missing", item: { item, count } }
          : { taken: false, refusal: "offline" };
      if (!changed && reply.outcome === "unknown_command")
        return { taken: false, refusal: "unavailable", cause: 'the backend does not know "clear"' };
      throw new UnknownOutcome(`clear answered ${reply.outcome} while taking ${count} ${item}`);
    }
    await this.#saved(logins);
    return { taken: true };
  }

  /** A command that was never sent: RCON is told unreachable when no connection could be made. */
  #notSent(error: RconError): NotSent {
    if (error.kind === "unavailable") this.options.availability?.failed(error.message);
    return new NotSent(error.message);
  }

  /**
   * "fits", or the refusal: no room, or the player is not on the backend. Throws NotSent when the room could not
   * be checked. Where `data get` cannot work on this backend, the live inventory decides alone.
   */
  async #room(
    player: EffectTarget,
    stacks: readonly GiveStack[],
    signal: AbortSignal | undefined,
  ): Promise<"fits" | Refusal> {
    if (stacks.length === 0) return "fits";
    const live = player.liveInventory();
    const needed = slotsNeeded(stacks, this.options.items);
    if (live !== undefined && live.freeSlots >= needed) return "fits";
    const held = await this.#held(player, signal);
    if (held.kind === "offline") return offline(player);
    if (held.kind === "failed")
      throw new NotSent(`the room check failed before anything was given: ${held.cause}`);
    if (held.kind === "broken") {
      if (!this.#dataGetBroken)
        this.options.logger.warn(
          `RCON: the backend cannot answer "data get entity <player> Inventory" (${held.cause}); System checks room on the inventory the gateway sees instead, and a reward waits while it has not seen it`,
        );
      this.#dataGetBroken = true;
      if (live === undefined)
        throw new NotSent(`cannot check the room (${held.cause}) and the gateway has not seen the inventory`);
      return {
        given: false,
        refusal: "no_room",
        ...(stacks[0] === undefined ? {} : { item: stacks[0] }),
        cause: `the inventory the gateway sees has ${live.freeSlots} free slots, ${needed} needed`,
      };
    }
    if (fitsAll(held.stacks, stacks, this.options.items)) return "fits";
    const item = stacks.find((stack) => !fitsAll(held.stacks, [stack], this.options.items)) ?? stacks[0];
    return {
      given: false,
      refusal: "no_room",
      ...(item === undefined ? {} : { item }),
      cause: `no room for ${item?.count ?? 0} ${item?.item ?? ""} in the inventory (data get)`,
    };
  }

  /** The carried stacks by `data get entity <player> Inventory`: a read, so no failure of it changed anything. */
  async #held(player: EffectTarget, signal: AbortSignal | undefined): Promise<Held> {
    const command = dataGetEntityCommand({ player: player.name, path: "Inventory" });
    if (!command.success) return { kind: "broken", cause: command.error };
    let reply: DataReply;
    try {
      reply = await this.options.commands.run(command.value, signal === undefined ? {} : { signal });
    } catch (error) {
      if (error instanceof RconError && error.kind === "unrecognized_reply")
        return { kind: "broken", cause: error.message };
      if (error instanceof RconError && !error.sent) this.#notSent(error);
      return { kind: "failed", cause: describe(error) };
    }
    if (reply.outcome === "no_entity") return { kind: "offline" };
    if (reply.outcome === "nothing_found") return { kind: "held", stacks: [] };
    if (reply.outcome === "unknown_command")
      return { kind: "broken", cause: 'the backend does not know "data get entity" (unknown command)' };
    if (reply.outcome !== "data") return { kind: "broken", cause: `data get answered ${reply.outcome}` };
    const stacks = carriedFromSnbt(reply.snbt);
    if (stacks === undefined) return { kind: "broken", cause: `cannot read ${player.name}'s inventory` };
    return { kind: "held", stacks };
  }

  /** Resolves after a save on the one RCON login every command of the effect ran on. */
  #saved(logins: ReadonlySet<number>): Promise<void> {
    const [login, ...others] = logins;
    if (login === undefined) return Promise.resolve();
    if (others.length > 0)
      return Promise.reject(
        new UnknownOutcome("the RCON connection broke during the effect: the backend may have restarted"),
      );
    return this.options.saves.afterEffect(login);
  }

  /** Waits (briefly) for the relayed slots to show the items; a give whose slots never show is logged. */
  async #confirmSlots(
    player: EffectTarget,
    before: InventorySnapshot,
    stacks: readonly GiveStack[],
  ): Promise<void> {
    const expected = totalsOf(before.stacks);
    for (const stack of stacks) expected.set(stack.item, (expected.get(stack.item) ?? 0) + stack.count);
    const deadline = Date.now() + (this.options.confirmMillis ?? DEFAULT_CONFIRM_MILLIS);
    for (;;) {
      const now = player.liveInventory();
      if (now === undefined) return;
      const totals = totalsOf(now.stacks);
      if (stacks.every((stack) => (totals.get(stack.item) ?? 0) >= (expected.get(stack.item) ?? 0))) return;
      if (Date.now() >= deadline) {
        this.options.logger.warn(
          `the backend said it gave ${player.name} ${stacks.map((stack) => `${stack.count} ${stack.item}`).join(", ")}, but the relayed slots do not show it all (dropped at their feet?)`,
        );
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, CONFIRM_POLL_MILLIS));
    }
  }
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const offline = (player: EffectTarget): Refusal => ({
  given: false,
  refusal: "offline",
  cause: `the backend has no player named ${player.name} online`,
});
