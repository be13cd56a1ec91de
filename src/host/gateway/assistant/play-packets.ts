import type { ItemStackSnapshot } from "../../../game/game-snapshots.js";
import { readVarInt } from "../protocol/minecraft-protocol.js";
import type { Direction, PacketCodec } from "../protocol/packet-codec.js";
import type { PacketObserver } from "../proxied-player.js";
import { AdvancementProgress, type AdvancementsPacket } from "./advancement-progress.js";
import { PLAYER_WINDOW, slotOfInventoryIndex, slotOfWindowSlot, stackOf } from "./inventory-slots.js";
import type { LivePlayerState } from "./live-player-state.js";

/** What the backend tells the client about the player, read from the relay. */
const FROM_BACKEND: ReadonlySet<string> = new Set([
  "login",
  "respawn",
  "update_health",
  "experience",
  "position",
  "held_item_slot",
  "window_items",
  "set_slot",
  "set_player_inventory",
  "game_state_change",
  "entity_status",
  "death_combat_event",
  "advancements",
]);

/** What the client tells the backend: where it moved itself, its hotbar choice, the slots it changed. */
const FROM_CLIENT: ReadonlySet<string> = new Set([
  "position",
  "position_look",
  "held_item_slot",
  "window_click",
  "set_creative_slot",
]);

/** `entity_status` 24–28: the client's operator level 0–4 (vanilla sends it at join and on /op, /deop). */
const OP_LEVEL_STATUS = 24;
const GAME_MODES = ["survival", "creative", "adventure", "spectator"];

/** What the relayed packets show happening to the player, beyond their state. Each call must not throw. */
export interface PlayPacketEvents {
  /** Health reached 0, or the backend reported the player's death. Once per life. */
  died(): void;
  /** A respawn (or a new login) put the player in another world than the one they were in. */
  dimensionChanged(dimension: string): void;
  /** The backend sent another operator level than before. */
  opLevelChanged(level: number): void;
  /** A shown advancement became done (after the join's own list, which only says what was done before). */
  advanced(advancement: string): void;
}

type Params = Record<string, unknown>;

/** A finite number of a decoded packet; anything else (NaN included) is unknown. */
const numberOf = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/** A relative-position flag of `position`: a bit mask before 1.21, flags by name from then on. */
const relative = (flags: unknown, axis: "x" | "y" | "z"): boolean => {
  if (typeof flags === "number") return (flags & { x: 1, y: 2, z: 4 }[axis]) !== 0;
  return typeof flags === "object" && flags !== null && (flags as Record<string, unknown>)[axis] === true;
};

/** A game mode as the packets carry it: a number (older layouts) or its name (the 1.20.5+ spawn info). */
const gameModeOf = (value: unknown): number | undefined => {
  if (typeof value === "string") {
    const index = GAME_MODES.indexOf(value);
    return index < 0 ? undefined : index;
  }
  return typeof value === "number" && value >= 0 ? value & 3 : undefined;
};

/**
 * Reads the player's state from the PLAY packets relayed between their client and the backend, after each frame
 * went on unchanged (a PacketObserver). Decoding uses minecraft-protocol's serializer of the backend's version
 * (PacketCodec); a frame that does not decode (a modded item component) makes the piece it carries unknown in
 * LivePlayerState, never stale and never an error.
 */
export class PlayPackets implements PacketObserver {
  readonly #advancements = new AdvancementProgress();
  /** The slot count of each other open window, from its `window_items` (the player's part is its last 36). */
  readonly #windowSizes = new Map<number, number>();
  #dead = false;

  constructor(
    private readonly codec: PacketCodec,
    private readonly state: LivePlayerState,
    private readonly events: PlayPacketEvents,
    /**
     * The id of a live stack's item number on this connection (the loader's synced registry, the server's saved
     * copy, else vanilla numbering); undefined leaves the stack unknown (`unknown:item_<n>`).
     */
    private readonly itemName: (id: number) => string | undefined = (id) => codec.itemName(id),
  ) {}

  observes(direction: Direction, name: string): boolean {
    return (direction === "toClient" ? FROM_BACKEND : FROM_CLIENT).has(name);
  }

  observe(direction: Direction, name: string, frame: Buffer): void {
    const packet = this.codec.decode("play", direction, frame);
    if (packet === undefined) this.#unreadable(name, frame);
    else if (direction === "toServer") this.#fromClient(name, packet.params);
    else this.#fromBackend(name, packet.params);
  }

  #fromBackend(name: string, params: Params): void {
    const { state } = this;
    switch (name) {
      case "login":
        state.entityId = numberOf(params.entityId);
        this.#world(params);
        return;
      case "respawn":
        this.#world(params);
        return;
      case "update_health":
        this.#health(numberOf(params.health), numberOf(params.food));
        return;
      case "experience":
        state.xpLevel = numberOf(params.level);
        state.xpTotal = numberOf(params.totalExperience);
        return;
      case "position":
        this.#teleported(params);
        return;
      case "held_item_slot":
        state.heldSlot = numberOf(params.slot);
        return;
      case "game_state_change":
        if (params.reason === "change_game_mode" || params.reason === 3)
          state.gameMode = gameModeOf(Math.round(numberOf(params.gameMode) ?? -1));
        return;
      case "entity_status":
        this.#status(params);
        return;
      case "death_combat_event":
        if (state.entityId !== undefined && params.playerId === state.entityId) this.#died();
        return;
      case "advancements":
        for (const advancement of this.#advancements.apply(params as AdvancementsPacket))
          this.events.advanced(advancement);
        return;
      default:
        this.#inventory(name, params);
    }
  }

  #fromClient(name: string, params: Params): void {
    const { state } = this;
    if (name === "position" || name === "position_look") {
      const [x, y, z] = [numberOf(params.x), numberOf(params.y), numberOf(params.z)];
      // a move the server would refuse (not a finite position) moves nobody: the last known place stays
      if (x !== undefined && y !== undefined && z !== undefined) state.position = { x, y, z };
    } else if (name === "held_item_slot") state.heldSlot = numberOf(params.slotId);
    else if (name === "set_creative_slot") this.#setSlot(PLAYER_WINDOW, numberOf(params.slot), params.item);
    else if (name === "window_click" && Array.isArray(params.changedSlots)) {
      // the client's own view of the slots its click changed (the backend echoes only what it disagrees with)
      const window = numberOf(params.windowId) ?? -1;
      for (const changed of params.changedSlots as { location?: unknown; item?: unknown }[])
        this.#setSlot(window, numberOf(changed.location), changed.item);
    }
  }

  /** The world and game mode of `login` and `respawn` (the 1.20.5+ `worldState`, or the older flat fields). */
  #world(params: Params): void {
    const { state } = this;
    const info = (params.worldState ?? params) as Params;
    const dimension = typeof info.name === "string" ? info.name : info.worldName;
    state.gameMode = gameModeOf(info.gamemode ?? info.gameMode);
    const before = state.dimension;
    state.dimension = typeof dimension === "string" ? dimension : undefined;
    if (before !== undefined && state.dimension !== undefined && state.dimension !== before)
      this.events.dimensionChanged(state.dimension);
  }

  #health(health: number | undefined, food: number | undefined): void {
    const { state } = this;
    const wasAlive = state.health !== undefined && state.health > 0;
    state.health = health;
    state.food = food;
    if (health !== undefined && health > 0) this.#dead = false;
    else if (health !== undefined && wasAlive) this.#died();
  }

  #died(): void {
    if (this.#dead) return;
    this.#dead = true;
    this.events.died();
  }

  /** `position`: absolute, or relative per axis to where the player was (unknown stays unknown). */
  #teleported(params: Params): void {
    const { state } = this;
    const position: Partial<Record<"x" | "y" | "z", number>> = {};
    for (const axis of ["x", "y", "z"] as const) {
      const value = numberOf(params[axis]);
      const base = relative(params.flags, axis) ? state.position?.[axis] : 0;
      if (value !== undefined && base !== undefined) position[axis] = base + value;
    }
    const { x, y, z } = position;
    state.position = x === undefined || y === undefined || z === undefined ? undefined : { x, y, z };
  }

  #status(params: Params): void {
    const { state } = this;
    const status = numberOf(params.entityStatus);
    if (state.entityId === undefined || params.entityId !== state.entityId || status === undefined) return;
    if (status < OP_LEVEL_STATUS || status > OP_LEVEL_STATUS + 4) return;
    const level = status - OP_LEVEL_STATUS;
    if (state.opLevel === level) return;
    state.opLevel = level;
    this.events.opLevelChanged(level);
  }

  #inventory(name: string, params: Params): void {
    if (name === "set_player_inventory") {
      const slot = slotOfInventoryIndex(numberOf(params.slotId) ?? -1);
      if (slot !== undefined) this.#put(slot, params.contents);
      return;
    }
    const window = numberOf(params.windowId) ?? -1;
    if (name === "set_slot") {
      const slot = numberOf(params.slot);
      // window -2 (before set_player_inventory): a slot of the inventory by its index
      if (window === -2) {
        const mapped = slotOfInventoryIndex(slot ?? -1);
        if (mapped !== undefined) this.#put(mapped, params.item);
      } else this.#setSlot(window, slot, params.item);
      return;
    }
    if (name !== "window_items" || !Array.isArray(params.items)) return;
    const items = params.items as unknown[];
    if (window !== PLAYER_WINDOW) this.#windowSizes.set(window, items.length);
    const slots = new Map<number, ItemStackSnapshot | undefined>();
    items.forEach((item, index) => {
      const slot = window === PLAYER_WINDOW ? index : slotOfWindowSlot(index, items.length);
      if (slot !== undefined) slots.set(slot, this.#stack(item, slot));
    });
    if (window === PLAYER_WINDOW || slots.size > 0) this.state.setInventory(slots);
  }

  /** A slot of window `window` changed; a window whose size is unknown (never listed) changes nothing. */
  #setSlot(window: number, slot: number | undefined, item: unknown): void {
    if (slot === undefined) return;
    const size = this.#windowSizes.get(window);
    const mapped =
      window === PLAYER_WINDOW ? slot : size === undefined ? undefined : slotOfWindowSlot(slot, size);
    if (mapped !== undefined) this.#put(mapped, item);
  }

  #put(slot: number, item: unknown): void {
    this.state.setSlot(slot, this.#stack(item, slot));
  }

  #stack(item: unknown, slot: number): ItemStackSnapshot | undefined {
    return stackOf(item, slot, this.itemName);
  }

  /** A frame that did not decode: the piece it carries is unknown from now on (the entity id is read by hand). */
  #unreadable(name: string, frame: Buffer): void {
    const { state } = this;
    switch (name) {
      case "login":
        state.entityId = entityIdOf(frame);
        state.gameMode = undefined;
        state.dimension = undefined;
        return;
      case "respawn":
        state.gameMode = undefined;
        state.dimension = undefined;
        return;
      case "update_health":
        state.health = undefined;
        state.food = undefined;
        return;
      case "experience":
        state.xpLevel = undefined;
        state.xpTotal = undefined;
        return;
      case "position":
      case "position_look":
        state.position = undefined;
        return;
      case "held_item_slot":
        state.heldSlot = undefined;
        return;
      case "game_state_change":
        state.gameMode = undefined;
        return;
      case "window_items":
      case "set_slot":
      case "set_player_inventory":
      case "window_click":
      case "set_creative_slot":
        state.forgetInventory();
        return;
      default:
      // a status, a death message or an advancement list that does not decode: nothing it would tell is kept stale
    }
  }
}

/** The entity id of a `login` frame, its first field (an i32 after the packet id) in every version. */
const entityIdOf = (frame: Buffer): number | undefined => {
  try {
    const { size } = readVarInt(frame, 0);
    return frame.length >= size + 4 ? frame.readInt32BE(size) : undefined;
  } catch {
    return undefined;
  }
};
