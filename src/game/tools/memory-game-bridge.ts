import { grantExperience, levelOfPoints } from "../data/experience.js";
import type {
  ExperienceGrant,
  GameBridge,
  GiveOutcome,
  GiveStack,
  KillReport,
  TakeOutcome,
} from "../game-bridge.js";
import {
  type InventorySnapshot,
  type ItemStackSnapshot,
  inventoryTotals,
  type PlayerStatsSnapshot,
} from "../game-snapshots.js";

/** One player of the in-process game: stats without the inventory summary, which is derived from the stacks. */
export interface MemoryPlayer {
  name: string;
  online: boolean;
  stats: Omit<PlayerStatsSnapshot, "inventory">;
  stacks: ItemStackSnapshot[];
}

const INVENTORY_SLOTS = 36;

/**
 * An in-process GameBridge for tests and tools without a server: same contract as the real bridge (snapshots
 * are copies; a give is all or nothing and is refused offline, for unknown items and when the stacks do not all
 * fit). Counts every given stack.
 */
export class MemoryGameBridge implements GameBridge {
  readonly players = new Map<string, MemoryPlayer>();
  /** Every successful give, in order. */
  readonly gives: { playerId: string; item: string; count: number }[] = [];

  /** `givesItems: false` plays a host without world effects (the gateway): every give and take is refused. */
  constructor(
    private readonly knownItem: (id: string) => boolean = () => true,
    private readonly options: { readonly givesItems?: boolean } = {},
  ) {}

  givesItems(): boolean {
    return this.options.givesItems ?? true;
  }

  join(playerId: string, name: string, stats: Partial<MemoryPlayer["stats"]> = {}): MemoryPlayer {
    const existing = this.players.get(playerId);
    if (existing !== undefined) {
      existing.online = true;
      return existing;
    }
    const player: MemoryPlayer = {
      name,
      online: true,
      stats: {
        health: 20,
        food: 20,
        xpLevel: 0,
        xpTotal: 0,
        position: { x: 0, y: 64, z: 0 },
        dimension: "minecraft:overworld",
        gameMode: "survival",
        ...stats,
      },
      stacks: [],
    };
    this.players.set(playerId, player);
    return player;
  }

  leave(playerId: string): void {
    const player = this.players.get(playerId);
    if (player !== undefined) player.online = false;
  }

  /** How many of an item the player holds. */
  count(playerId: string, item: string): number {
    return (this.players.get(playerId)?.stacks ?? [])
      .filter((stack) => stack.item === item)
      .reduce((sum, stack) => sum + stack.count, 0);
  }

  isOnline(playerId: string): boolean {
    return this.players.get(playerId)?.online === true;
  }

  playerName(playerId: string): string | undefined {
    return this.players.get(playerId)?.name;
  }

  inventory(playerId: string): InventorySnapshot | undefined {
    const player = this.#online(playerId);
    if (player === undefined) return undefined;
    return structuredClone({
      stacks: player.stacks,
      freeSlots: INVENTORY_SLOTS - player.stacks.length,
      heldSlot: 0,
    });
  }

  stats(playerId: string): PlayerStatsSnapshot | undefined {
    const player = this.#online(playerId);
    if (player === undefined) return undefined;
    return structuredClone({
      ...player.stats,
      inventory: {
        usedSlots: player.stacks.length,
        freeSlots: INVENTORY_SLOTS - player.stacks.length,
        totals: inventoryTotals(player.stacks),
      },
    });
  }

  /** Gives all stacks or none; each stack takes one slot. "Saved" at once: this game has no disk. */
  async giveItems(
    playerId: string,
    stacks: readonly GiveStack[],
    experience?: ExperienceGrant,
  ): Promise<GiveOutcome> {
    const player = this.#online(playerId);
    if (player === undefined) return { given: false, refusal: "offline" };
    if (!this.givesItems()) return { given: false, refusal: "unsupported" };
    const unknown = stacks.find((stack) => !this.knownItem(stack.item));
    if (unknown !== undefined) return { given: false, refusal: "unknown_item", item: unknown };
    if (player.stacks.length + stacks.length > INVENTORY_SLOTS)
      return { given: false, refusal: "no_room", ...(stacks[0] === undefined ? {} : { item: stacks[0] }) };
    for (const { item, count } of stacks) {
      player.stacks.push({ slot: 9 + player.stacks.length, item, count });
      this.gives.push({ playerId, item, count });
    }
    if (experience !== undefined) {
      const total = grantExperience(player.stats.xpTotal ?? 0, experience);
      player.stats = { ...player.stats, xpTotal: total, xpLevel: levelOfPoints(total) };
    }
    return { given: true };
  }

  /** Removes all stacks or none (each item's count summed over its stacks); refused offline or when one is short. */
  async takeItems(playerId: string, stacks: readonly GiveStack[]): Promise<TakeOutcome> {
    const player = this.#online(playerId);
    if (player === undefined) return { taken: false, refusal: "offline" };
    if (!this.givesItems()) return { taken: false, refusal: "unsupported" };
    const short = stacks.find((stack) => this.count(playerId, stack.item) < stack.count);
    if (short !== undefined) return { taken: false, refusal: "missing", item: short };
    for (const { item, count } of stacks) {
      let left = count;
      for (const stack of player.stacks.filter((candidate) => candidate.item === item)) {
        const take = Math.min(left, stack.count);
        stack.count -= take;
        left -= take;
      }
      player.stacks = player.stacks.filter((stack) => stack.count > 0);
    }
    return { taken: true };
  }

  readonly #killListeners = new Set<(kill: KillReport) => void>();

  onKill(listener: (kill: KillReport) => void): () => void {
    this.#killListeners.add(listener);
    return () => this.#killListeners.delete(listener);
  }

  /** The player killed an entity (what a host reports). */
  kill(playerId: string, entity: string, entityId: string): void {
    for (const listener of this.#killListeners) listener({ playerId, entity, entityId });
  }

  /** One stack; true when given (a shorthand for tests and tools). */
  async giveItem(playerId: string, item: string, count: number): Promise<boolean> {
    return (await this.giveItems(playerId, [{ item, count }])).given;
  }

  #online(playerId: string): MemoryPlayer | undefined {
    const player = this.players.get(playerId);
    return player?.online === true ? player : undefined;
  }
}
