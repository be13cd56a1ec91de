import type { ChatComponent } from "./chat-component.js";
import { type ChatDialect, chatDialect, chatPacket } from "./chat-packets.js";
import { itemConstructor, type SquidItem, type SquidPlayer, type SquidServer } from "./flying-squid-types.js";
import type { HostPlayer } from "./host-handler.js";
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

/** The HostPlayer facade over one flying-squid player; every read copies, every write goes through set_slot. */
export class SquidHostPlayer implements HostPlayer {
  readonly uuid: string;
  readonly name: string;
  readonly protocolVersion: number;
  readonly #dialect: ChatDialect;
  #locale = "en_us";

  /** `initialLocale` is what the client sent during configuration, before flying-squid saw the player. */
  constructor(
    private readonly serv: SquidServer,
    private readonly player: SquidPlayer,
    initialLocale?: string,
  ) {
    if (initialLocale !== undefined && initialLocale !== "") this.#locale = initialLocale.toLowerCase();
    this.uuid = player._client.uuid;
    this.name = player._client.username;
    this.protocolVersion = player._client.protocolVersion;
    this.#dialect = chatDialect((feature) => serv.supportFeature(feature), this.protocolVersion);
    player._client.on("settings", (packet: { locale?: unknown }) => {
      if (typeof packet.locale === "string" && packet.locale !== "")
        this.#locale = packet.locale.toLowerCase();
    });
  }

  opLevel(): number {
    return this.player.op ? 4 : 0;
  }

  locale(): string {
    return this.#locale;
  }

  isOnline(): boolean {
    return this.player.disconnected !== true && this.serv.players.includes(this.player);
  }

  sendCard(component: ChatComponent): void {
    if (!this.isOnline()) return;
    const packet = chatPacket(this.#dialect, component);
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
      dimension: this.player.world === this.serv.netherworld ? "minecraft:the_nether" : "minecraft:overworld",
      gameMode: gameModeName(this.player.gameMode),
      inventory: {
        usedSlots: stacks.length,
        freeSlots: FILL_ORDER.length - stacks.length,
        totals: inventoryTotals(stacks),
      },
    };
  }

  async giveItem(itemName: string, count: number): Promise<boolean> {
    const data = this.serv.registry.itemsByName[stripNamespace(itemName)];
    if (data === undefined || !Number.isInteger(count) || count <= 0 || !this.isOnline()) return false;
    const slots = this.player.inventory.slots;
    const plan: { slot: number; add: number }[] = [];
    let left = count;
    for (const slot of FILL_ORDER) {
      const item = slots[slot];
      if (left > 0 && item && item.type === data.id && item.count < data.stackSize) {
        const add = Math.min(left, data.stackSize - item.count);
        plan.push({ slot, add });
        left -= add;
      }
    }
    for (const slot of FILL_ORDER) {
      if (left > 0 && !slots[slot]) {
        const add = Math.min(left, data.stackSize);
        plan.push({ slot, add });
        left -= add;
      }
    }
    if (left > 0) return false;
    const Item = itemConstructor(this.serv);
    for (const { slot, add } of plan) {
      const existing = slots[slot];
      if (existing) existing.count += add;
      const next: SquidItem = existing ?? new Item(data.id, add);
      this.player.inventory.updateSlot(slot, next);
    }
    return true;
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
