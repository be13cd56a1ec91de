import type { ExperienceGrant, GiveOutcome, GiveStack, TakeOutcome } from "../../game/game-bridge.js";
import type { InventorySnapshot, PlayerStatsSnapshot } from "../../game/game-snapshots.js";
import type { ChatComponent } from "./chat-component.js";
import type { DeclareCommandsPacket } from "./declare-commands.js";

/**
 * A connected player as the assistant sees it. Reads return codec'd snapshots, never live game objects;
 * sends are fire-and-forget and silently ignored once the player has left.
 */
export interface HostPlayer {
  readonly uuid: string;
  readonly name: string;
  /** 4 for server operators (listed in `ops`, verified or not), 0 otherwise (flying-squid has no finer levels). */
  opLevel(): number;
  /** Gives a listed operator the game's own operator commands (`/kill`, `/summon`…) once verified. */
  enableGameOperator(): void;
  readonly protocolVersion: number;
  /** The client's language from its settings packet (`en_us` until the client sends one). */
  locale(): string;
  isOnline(): boolean;
  sendCard(component: ChatComponent): void;
  sendText(text: string): void;
  /** Shows a short line above the hotbar (progress); it fades by itself. */
  sendActionBar(component: ChatComponent): void;
  /** A title with its subtitle in the middle of the screen (a few seconds). */
  sendTitle(title: ChatComponent, subtitle: ChatComponent): void;
  /** The inventory, or undefined when this host does not know it (the gateway before the backend sent it). */
  inventory(): InventorySnapshot | undefined;
  stats(): PlayerStatsSnapshot;
  /** One stack: true once given and saved; false (nothing given) when the item is unknown or there is no room. */
  giveItem(itemName: string, count: number): Promise<boolean>;
  /**
   * All stacks or none, with `experience` in the same save. `{ given: true }` only once the player's data file holding them is durable (a crash
   * after that keeps the items); a refusal changed nothing. Rejects when the save failed after the change.
   */
  giveItems(
    stacks: readonly GiveStack[],
    experience?: ExperienceGrant,
    /** Aborts a give that has not begun changing anything (refused `unavailable` then). */
    signal?: AbortSignal,
  ): Promise<GiveOutcome>;
  /** Removes all stacks or none; `{ taken: true }` once the data file is durable. Rejects when that save failed. */
  takeItems(stacks: readonly GiveStack[]): Promise<TakeOutcome>;
  /** Writes the player's data file (inventory, xp, position, …) atomically; resolves once it is durable. */
  save(): Promise<void>;
}

/** The declare_commands tree a player may see; build one with `brigadierTree`. */
export interface HostCommandTree {
  toPacket(): DeclareCommandsPacket;
}

/** What the host calls into; the AssistantServer implements it. Every method may throw without harm. */
export interface HostHandler {
  /** A registered command line without the slash, base included (`system hello`, `reason why`). */
  onCommand(player: HostPlayer, line: string): Promise<void>;
  /** Replacements for the last space-separated word of `line` (without the slash). */
  completions(player: HostPlayer, line: string): Promise<readonly string[]>;
  /** The command tree for this player, or undefined to send only flying-squid's own commands. */
  commandTree(player: HostPlayer): HostCommandTree | undefined;
  onJoin(player: HostPlayer): Promise<void> | void;
  /** The host subscribes once at start: the listener resends a player's command tree after a permission change. */
  onCommandsChanged?(listener: (uuid: string) => void): void;
  onLeave(player: HostPlayer): Promise<void> | void;
  /** The player killed an entity (`minecraft:zombie`) whose own id is `entityId`. */
  onKill?(player: HostPlayer, entity: string, entityId: string): void;
  /** The player died (their health reached 0). */
  onDeath?(player: HostPlayer): Promise<void> | void;
  /** The player entered another dimension (`minecraft:the_nether`). */
  onDimensionChange?(player: HostPlayer, dimension: string): Promise<void> | void;
  /** The player completed an advancement the game shows (`minecraft:story/mine_diamond`). */
  onAdvancement?(player: HostPlayer, advancement: string): Promise<void> | void;
  /** The game changed the player's operator level (`opLevel()` tells the new one): their rights follow at once. */
  onOperatorChange?(player: HostPlayer): Promise<void> | void;
}
