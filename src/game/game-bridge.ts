import type { InventorySnapshot, PlayerStatsSnapshot } from "./game-snapshots.js";

/** One stack to give: a namespaced item id and a count (may exceed the item's stack size). */
export interface GiveStack {
  readonly item: string;
  readonly count: number;
}

/** Experience to add: `points`, then `levels` whole levels on top (as `/xp <n>L`). */
export interface ExperienceGrant {
  readonly points: number;
  readonly levels: number;
}

/** The outcome of a take: all stacks removed and saved, or nothing changed (offline, or a stack not held). */
export type TakeOutcome =
  | { readonly taken: true }
  | {
      readonly taken: false;
      readonly refusal: "offline" | "missing" | "unsupported" | "unavailable";
      readonly item?: GiveStack;
      /** Why, for the log (an `unavailable` refusal's cause). */
      readonly cause?: string;
    };

/** A player killed an entity (as far as the host reports kills). */
export interface KillReport {
  readonly playerId: string;
  /** The entity type, namespaced (`minecraft:zombie`). */
  readonly entity: string;
  /** The killed entity's own id (a UUID where the host has one): one kill, reported once. */
  readonly entityId: string;
}

/**
 * Why nothing was given: the player is not online, an item is unknown, the stacks do not all fit, this host
 * cannot change inventories at all (`unsupported`: a gateway without RCON), or the way to the world is away or
 * too slow right now (`unavailable`: the gateway's RCON; nothing was sent, the give is still owed).
 */
export type GiveRefusal = "offline" | "unknown_item" | "no_room" | "unsupported" | "unavailable";

/**
 * The outcome of a give. `given: true` means every stack is in the player's inventory AND in the player's saved
 * data on disk, so it survives a crash. A refusal means nothing changed at all.
 */
export type GiveOutcome =
  | { readonly given: true }
  | {
      readonly given: false;
      readonly refusal: GiveRefusal;
      readonly item?: GiveStack;
      /** Why, for the log (an `unavailable` refusal's cause). */
      readonly cause?: string;
    };

/**
 * The main-thread bridge: what game tools may read and do in the running game. Reads return codec'd
 * snapshots (copies), never live objects; writes are only called from durable write steps.
 */
export interface GameBridge {
  /**
   * Whether this host can put items into (and take them from) inventories. False at the gateway, where a give
   * or take is refused as `unsupported` before anything changes; a feature that charges for items (check-in,
   * shop) asks first and refuses before it writes anything.
   */
  givesItems(): boolean;
  isOnline(playerId: string): boolean;
  playerName(playerId: string): string | undefined;
  inventory(playerId: string): InventorySnapshot | undefined;
  stats(playerId: string): PlayerStatsSnapshot | undefined;
  /**
   * Gives all stacks or none, with `experience` (if any) in the same save: it first checks that every stack fits,
   * then changes the inventory (and experience) and resolves
   * `{ given: true }` only once the player's data is durably saved. It rejects when the outcome is unknown (the
   * inventory changed but the save failed): the caller must not give again without checking.
   */
  giveItems(
    playerId: string,
    stacks: readonly GiveStack[],
    experience?: ExperienceGrant,
    /** Aborts a give that has not begun changing anything (shutdown): it is then refused `unavailable`. */
    signal?: AbortSignal,
  ): Promise<GiveOutcome>;
  /**
   * Removes all stacks or none (counts summed over the inventory), resolving `{ taken: true }` only once the
   * player's data is durably saved; a refusal changed nothing; a rejection means the outcome is unknown.
   */
  takeItems(playerId: string, stacks: readonly GiveStack[]): Promise<TakeOutcome>;
  /** Listens to kills the host reports (none on hosts that cannot tell); returns the unsubscribe. */
  onKill(listener: (kill: KillReport) => void): () => void;
}
