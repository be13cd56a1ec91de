import type { ExperienceGrant, GiveOutcome, GiveStack, TakeOutcome } from "../../../game/game-bridge.js";
import type { InventorySnapshot } from "../../../game/game-snapshots.js";
import type { Logger } from "../../../util/logger.js";
import type { Validation } from "../../../util/validation.js";
import { ITEM_ID, MAX_GIVE_COUNT } from "../rcon/command-arguments.js";
import { clearCommand, giveCommand } from "../rcon/item-commands.js";
import { dataGetEntityCommand, experienceAddCommand } from "../rcon/player-commands.js";
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

/**
 * World effects through the backend's RCON: gives all-or-nothing (every stack checked for room first, on the
 * live inventory when the relay knows it, else on `data get entity <player> Inventory`), each give confirmed by
 * its reply (and by the relayed slots when they are observed), experience by `experience add`, takes by `clear`
 * after a count. An effect resolves only after a `save-all` that began after it finished (SaveBatcher); a refusal
 * changed nothing; a rejection means the outcome is unknown (the caller holds it for an admin, never repeats it).
 */
export class RconEffects {
  constructor(
    private readonly options: {
      readonly commands: RconCommands;
      readonly saves: SaveBatcher;
      readonly items: ItemCatalog;
      readonly logger: Logger;
      readonly confirmMillis?: number;
    },
  ) {}

  async give(
    player: EffectTarget,
    stacks: readonly GiveStack[],
    experience?: ExperienceGrant,
  ): Promise<GiveOutcome> {
    const { items } = this.options;
    for (const stack of stacks)
      if (
        !ITEM_ID.test(stack.item) ||
        items.stackSize(stack.item) === undefined ||
        !Number.isInteger(stack.count) ||
        stack.count <= 0
      )
        return { given: false, refusal: "unknown_item", item: stack };
    const room = await this.#room(player, stacks);
    if (room !== "fits") return room;
    const before = player.liveInventory();
    const logins = new Set<number>();
    let changed = false;
    const step = async <R extends { readonly outcome: string }>(
      command: Validation<RconCommand<R>>,
      succeeded: (reply: R) => boolean,
    ): Promise<R> => {
      if (!command.success) throw new UnknownOutcome(command.error);
      let reply: R;
      try {
        reply = await this.options.commands.run(command.value);
      } catch (error) {
        if (!changed && error instanceof RconError && !error.sent) throw error;
        throw new UnknownOutcome(`${describe(error)} after part of the effect was applied`);
      }
      logins.add(this.options.commands.logins);
      if (!succeeded(reply)) {
        if (!changed) return reply;
        throw new UnknownOutcome(
          `"${command.value.name}" answered ${reply.outcome} after part of the effect`,
        );
      }
      changed = true;
      return reply;
    };
    try {
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
          if (reply.outcome === "no_player") return { given: false, refusal: "offline" };
          if (reply.outcome === "unknown_item") return { given: false, refusal: "unknown_item", item: stack };
          if (reply.outcome !== "given") throw new UnknownOutcome(`give answered ${reply.outcome}`);
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
        if (reply.outcome === "no_player") return { given: false, refusal: "offline" };
        if (reply.outcome !== "added") throw new UnknownOutcome(`experience answered ${reply.outcome}`);
      }
    } catch (error) {
      if (!changed && error instanceof RconError && !error.sent) return { given: false, refusal: "offline" };
      throw error;
    }
    if (!changed) return { given: true };
    const saved = this.#saved(logins);
    if (before !== undefined) await this.#confirmSlots(player, before, stacks);
    await saved;
    return { given: true };
  }

  async take(player: EffectTarget, stacks: readonly GiveStack[]): Promise<TakeOutcome> {
    const wanted = new Map<string, number>();
    for (const stack of stacks) {
      if (!ITEM_ID.test(stack.item) || !Number.isInteger(stack.count) || stack.count <= 0)
        return { taken: false, refusal: "missing", item: stack };
      wanted.set(stack.item, (wanted.get(stack.item) ?? 0) + stack.count);
    }
    let held: readonly HeldStack[] | "offline";
    try {
      held = await this.#held(player);
    } catch (error) {
      if (error instanceof RconError && !error.sent) return { taken: false, refusal: "offline" };
      throw error;
    }
    if (held === "offline") return { taken: false, refusal: "offline" };
    const totals = totalsOf(held);
    for (const [item, count] of wanted)
      if ((totals.get(item) ?? 0) < count) return { taken: false, refusal: "missing", item: { item, count } };
    const logins = new Set<number>();
    let changed = false;
    for (const [item, count] of wanted) {
      const command = clearCommand({ player: player.name, item, maxCount: count });
      if (!command.success) throw new UnknownOutcome(command.error);
      const reply = await this.options.commands.run(command.value).catch((error: unknown) => {
        if (!changed && error instanceof RconError && !error.sent) return undefined;
        throw new UnknownOutcome(`${describe(error)} while taking items`);
      });
      if (reply === undefined) return { taken: false, refusal: "offline" };
      logins.add(this.options.commands.logins);
      if (reply.outcome === "removed" && reply.count === count) {
        changed = true;
        continue;
      }
      if (!changed && (reply.outcome === "none" || reply.outcome === "no_player"))
        return reply.outcome === "none"
          ? { taken: false, refusal: "missing", item: { item, count } }
          : { taken: false, refusal: "offline" };
      throw new UnknownOutcome(`clear answered ${reply.outcome} while taking ${count} ${item}`);
    }
    await this.#saved(logins);
    return { taken: true };
  }

  /** "fits", or the refusal: no room, or the player is not on the backend. */
  async #room(
    player: EffectTarget,
    stacks: readonly GiveStack[],
  ): Promise<"fits" | Extract<GiveOutcome, { given: false }>> {
    if (stacks.length === 0) return "fits";
    const live = player.liveInventory();
    if (live !== undefined && live.freeSlots >= slotsNeeded(stacks, this.options.items)) return "fits";
    let held: readonly HeldStack[] | "offline";
    try {
      held = await this.#held(player);
    } catch (error) {
      if (error instanceof RconError && !error.sent) return { given: false, refusal: "offline" };
      throw error;
    }
    if (held === "offline") return { given: false, refusal: "offline" };
    if (fitsAll(held, stacks, this.options.items)) return "fits";
    const item = stacks.find((stack) => !fitsAll(held, [stack], this.options.items)) ?? stacks[0];
    return { given: false, refusal: "no_room", ...(item === undefined ? {} : { item }) };
  }

  /** The carried stacks by `data get entity <player> Inventory`; "offline" when the backend has no such player. */
  async #held(player: EffectTarget): Promise<readonly HeldStack[] | "offline"> {
    const command = dataGetEntityCommand({ player: player.name, path: "Inventory" });
    if (!command.success) throw new UnknownOutcome(command.error);
    const reply = await this.options.commands.run(command.value);
    if (reply.outcome === "no_entity") return "offline";
    if (reply.outcome === "nothing_found") return [];
    if (reply.outcome !== "data") throw new UnknownOutcome(`data get answered ${reply.outcome}`);
    const held = carriedFromSnbt(reply.snbt);
    if (held === undefined) throw new UnknownOutcome(`cannot read ${player.name}'s inventory: ${reply.snbt}`);
    return held;
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
