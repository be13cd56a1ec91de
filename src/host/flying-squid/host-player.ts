import { grantExperience } from "../../game/data/experience.js";
import type { ExperienceGrant, GiveOutcome, GiveStack, TakeOutcome } from "../../game/game-bridge.js";
import type { ChatComponent } from "../shared/chat-component.js";
import { type ProtocolDescription, systemChatBytes, systemChatPacketId } from "../shared/chat-nbt.js";
import {
  actionBarPacket,
  type ChatDialect,
  chatDialect,
  chatPacket,
  titlePackets,
} from "../shared/chat-packets.js";
import type { HostPlayer } from "../shared/host-handler.js";
import { itemConstructor, type SquidItem, type SquidPlayer, type SquidServer } from "./flying-squid-types.js";
import { savePlayerData } from "./player-data-file.js";
import {
  gameModeName,
  type InventorySnapshot,
  type ItemStackSnapshot,
  inventoryTotals,
  type PlayerStatsSnapshot,
} from "./snapshots.js";

/** Hotbar first (protocol slots 36–44), then the main inventory (9–35), as vanilla fills it. */
const FILL_ORDER: readonly number[] = [
  ...Array.from({ length: 9 }, (_, index) => 36 + index),
  ...Array.from({ length: 27 }, (_, index) => 9 + index),
];

const stripNamespace = (name: string): string => (name.startsWith("minecraft:") ? name.slice(10) : name);

/** One planned change of a give: add `add` items of `type` to a protocol slot. */
/** The dimension a player is in, as the game names it. */
export const dimensionOf = (serv: SquidServer, player: SquidPlayer): string =>
  player.world === serv.netherworld ? "minecraft:the_nether" : "minecraft:overworld";

interface SlotChange {
  readonly slot: number;
  readonly type: number;
  readonly add: number;
}

/**
 * The HostPlayer facade over one flying-squid player; every read copies, every write goes through set_slot.
 * Saves of its data file run one at a time; a save asked for while one is writing runs after it.
 */
export class SquidHostPlayer implements HostPlayer {
  readonly uuid: string;
  readonly name: string;
  readonly protocolVersion: number;
  readonly #dialect: ChatDialect;
  /** `system_chat`'s id when cards can be written as bytes directly (1.20.3+ NBT chat). */
  readonly #systemChatId: number | undefined;
  #locale = "en_us";
  /** Whether the game's operator flag was given (a trusted or verified listed operator). */
  #gameOperator = false;
  #saving: Promise<void> = Promise.resolve();
  #queuedSave: Promise<void> | undefined;

  /**
   * `initialLocale` is what the client sent during configuration, before flying-squid saw the player.
   * `worldFolder` is where its data file lives; without one nothing is saved (as in flying-squid).
   */
  constructor(
    private readonly serv: SquidServer,
    private readonly player: SquidPlayer,
    initialLocale: string | undefined,
    private readonly worldFolder: string | undefined,
    /** Named in the server's `ops`: an operator for System (subject to verification), whatever `player.op` is. */
    private readonly listedOperator: boolean,
  ) {
    if (initialLocale !== undefined && initialLocale !== "") this.#locale = initialLocale.toLowerCase();
    this.uuid = player._client.uuid;
    this.name = player._client.username;
    this.protocolVersion = player._client.protocolVersion;
    this.#dialect = chatDialect((feature) => serv.supportFeature(feature), this.protocolVersion);
    this.#systemChatId =
      this.#dialect.nbtComponents && typeof player._client.writeRaw === "function"
        ? systemChatPacketId(serv.registry as ProtocolDescription)
        : undefined;
    player._client.on("settings", (packet: { locale?: unknown }) => {
      if (typeof packet.locale === "string" && packet.locale !== "")
        this.#locale = packet.locale.toLowerCase();
    });
  }

  opLevel(): number {
    // a listed operator counts (for System's verification) until the game made them an operator; from then on
    // the game's flag decides, so flying-squid's `/deop` removes both
    return this.player.op || (this.listedOperator && !this.#gameOperator) ? 4 : 0;
  }

  enableGameOperator(): void {
    this.#gameOperator = true;
    this.player.op = true;
  }

  locale(): string {
    return this.#locale;
  }

  isOnline(): boolean {
    return this.player.disconnected !== true && this.serv.players.includes(this.player);
  }

  sendCard(component: ChatComponent): void {
    if (!this.isOnline() || this.#writeSystemChat(component, false)) return;
    const packet = chatPacket(this.#dialect, component);
    this.player._client.write(packet.name, packet.params);
  }

  sendActionBar(component: ChatComponent): void {
    if (!this.isOnline() || this.#writeSystemChat(component, true)) return;
    const packet = actionBarPacket(this.#dialect, component);
    this.player._client.write(packet.name, packet.params);
  }

  /**
   * Writes an NBT `system_chat` as its bytes (the serializer's, without its cost); false when it must go the usual
   * way. Never past packets the serializer still holds (a slow connection): those go first, in order.
   */
  #writeSystemChat(component: ChatComponent, actionBar: boolean): boolean {
    const id = this.#systemChatId;
    if (id === undefined) return false;
    const pending = this.player._client.serializer;
    if (pending !== undefined && pending.readableLength + pending.writableLength > 0) return false;
    const bytes = systemChatBytes(id, component, this.#dialect, actionBar);
    if (bytes === undefined) return false;
    this.player._client.writeRaw?.(bytes);
    return true;
  }

  sendTitle(title: ChatComponent, subtitle: ChatComponent): void {
    if (!this.isOnline()) return;
    for (const packet of titlePackets(this.#dialect, title, subtitle))
      this.player._client.write(packet.name, packet.params);
  }

  sendText(text: string): void {
    this.sendCard({ text });
  }

  inventory(): InventorySnapshot {
    const stacks = this.#stacks();
    return { stacks, freeSlots: FILL_ORDER.length - stacks.length, heldSlot: this.player.heldItemSlot };
  }

  stats(): PlayerStatsSnapshot {
    const stacks = this.#stacks();
    const { x, y, z } = this.player.position;
    return {
      health: this.player.health,
      food: this.player.food,
      xpLevel: this.player.level ?? 0,
      xpTotal: this.player.xp,
      position: { x, y, z },
      dimension: dimensionOf(this.serv, this.player),
      gameMode: gameModeName(this.player.gameMode),
      inventory: {
        usedSlots: stacks.length,
        freeSlots: FILL_ORDER.length - stacks.length,
        totals: inventoryTotals(stacks),
      },
    };
  }

  async giveItem(itemName: string, count: number): Promise<boolean> {
    if (!Number.isInteger(count) || count <= 0) return false;
    return (await this.giveItems([{ item: itemName, count }])).given;
  }

  /**
   * Plans every stack against the current inventory first (nothing changes unless all fit), applies them and the
   * experience, and resolves only once the data file with the new inventory and total is durable. Rejects when that save fails: the items
   * are then in the inventory but maybe not on disk.
   */
  async giveItems(stacks: readonly GiveStack[], experience?: ExperienceGrant): Promise<GiveOutcome> {
    if (!this.isOnline()) return { given: false, refusal: "offline" };
    const plan = this.#plan(stacks);
    if (!Array.isArray(plan)) return plan;
    const Item = itemConstructor(this.serv);
    const slots = this.player.inventory.slots;
    for (const { slot, type, add } of plan) {
      const existing = slots[slot];
      if (existing) existing.count += add;
      const next: SquidItem = existing ?? new Item(type, add);
      this.player.inventory.updateSlot(slot, next);
    }
    // flying-squid derives the level and bar from the total and sends them to the client
    if (experience !== undefined) this.player.setXp(grantExperience(this.player.xp, experience));
    await this.save();
    return { given: true };
  }

  /**
   * Removes all stacks or none: every item's count is checked against the whole inventory first, then taken from
   * the last slots back (main inventory before the hotbar); resolves once the data file is durable.
   */
  async takeItems(stacks: readonly GiveStack[]): Promise<TakeOutcome> {
    if (!this.isOnline()) return { taken: false, refusal: "offline" };
    const slots = this.player.inventory.slots;
    const held = (item: string): number =>
      FILL_ORDER.reduce((sum, slot) => {
        const stack = slots[slot];
        return stack && `minecraft:${stack.name}` === item ? sum + stack.count : sum;
      }, 0);
    const wanted = new Map<string, number>();
    for (const stack of stacks) {
      if (!Number.isInteger(stack.count) || stack.count <= 0)
        return { taken: false, refusal: "missing", item: stack };
      wanted.set(stack.item, (wanted.get(stack.item) ?? 0) + stack.count);
    }
    for (const [item, count] of wanted)
      if (held(item) < count) return { taken: false, refusal: "missing", item: { item, count } };
    for (const [item, count] of wanted) {
      let left = count;
      for (const slot of [...FILL_ORDER].reverse()) {
        const stack = slots[slot];
        if (left === 0) break;
        if (!stack || `minecraft:${stack.name}` !== item) continue;
        const take = Math.min(left, stack.count);
        left -= take;
        if (take === stack.count) this.player.inventory.updateSlot(slot, null);
        else {
          stack.count -= take;
          this.player.inventory.updateSlot(slot, stack);
        }
      }
    }
    await this.save();
    return { taken: true };
  }

  save(): Promise<void> {
    if (this.#queuedSave !== undefined) return this.#queuedSave;
    const next = this.#saving
      .catch(() => {})
      .then(() => {
        this.#queuedSave = undefined;
        return this.#write();
      });
    this.#queuedSave = next;
    this.#saving = next;
    return next;
  }

  async #write(): Promise<void> {
    if (this.worldFolder === undefined) return;
    await savePlayerData({
      player: this.player,
      worldFolder: this.worldFolder,
      snakeCase: this.serv.supportFeature("attributeSnakeCase"),
      theFlattening: this.serv.supportFeature("theFlattening"),
    });
  }

  /** Where each stack goes (partial stacks of the same plain item first, then empty slots), or why it cannot. */
  #plan(stacks: readonly GiveStack[]): SlotChange[] | Extract<GiveOutcome, { given: false }> {
    const room = new Map<number, { type: number; count: number } | undefined>();
    for (const slot of FILL_ORDER) {
      const item = this.player.inventory.slots[slot];
      // Stacks with NBT (enchantments, names) are never merged into; they only take up their slot.
      const plain = item && (item as { nbt?: unknown }).nbt == null;
      room.set(slot, item ? { type: plain ? item.type : -1, count: item.count } : undefined);
    }
    const plan: SlotChange[] = [];
    for (const stack of stacks) {
      const data = this.serv.registry.itemsByName[stripNamespace(stack.item)];
      if (data === undefined) return { given: false, refusal: "unknown_item", item: stack };
      if (!Number.isInteger(stack.count) || stack.count <= 0)
        return { given: false, refusal: "unknown_item", item: stack };
      let left = stack.count;
      for (const pass of ["partial", "empty"] as const) {
        for (const slot of FILL_ORDER) {
          if (left === 0) break;
          const held = room.get(slot);
          const fits =
            pass === "partial"
              ? held !== undefined && held.type === data.id && held.count < data.stackSize
              : held === undefined;
          if (!fits) continue;
          const add = Math.min(left, data.stackSize - (held?.count ?? 0));
          plan.push({ slot, type: data.id, add });
          room.set(slot, { type: data.id, count: (held?.count ?? 0) + add });
          left -= add;
        }
      }
      if (left > 0) return { given: false, refusal: "no_room", item: stack };
    }
    return plan;
  }

  #stacks(): ItemStackSnapshot[] {
    const stacks: ItemStackSnapshot[] = [];
    for (const slot of FILL_ORDER) {
      const item = this.player.inventory.slots[slot];
      if (item && item.count > 0) stacks.push({ slot, item: `minecraft:${item.name}`, count: item.count });
    }
    return stacks.sort((left, right) => left.slot - right.slot);
  }
}
