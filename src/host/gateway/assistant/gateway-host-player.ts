import type { ExperienceGrant, GiveOutcome, GiveStack, TakeOutcome } from "../../../game/game-bridge.js";
import type { InventorySnapshot, PlayerStatsSnapshot } from "../../../game/game-snapshots.js";
import type { ChatComponent } from "../../shared/chat-component.js";
import { actionBarPacket, titlePackets } from "../../shared/chat-packets.js";
import type { HostPlayer } from "../../shared/host-handler.js";
import { WINDOW_CLICKS } from "../../shared/window/window-pages.js";
import type { EffectTarget, RconEffects } from "../effects/rcon-effects.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import { LivePlayerState } from "./live-player-state.js";

/**
 * The HostPlayer facade over one player relayed through the gateway. Everything shown goes to the client as the
 * gateway's own PLAY packets (system_chat, the action bar, titles); reads come from what the gateway saw in the
 * relayed packets. Gives and takes go through the backend's RCON (`effects`); without RCON every give and take is
 * refused as `unsupported` before anything is written.
 */
export class GatewayHostPlayer implements HostPlayer {
  readonly uuid: string;
  readonly name: string;
  readonly protocolVersion: number;
  readonly state = new LivePlayerState();
  /** Named in `ops` of System's server.json: an operator (level 4) for System whatever the backend sends. */
  listedOperator = false;

  constructor(
    readonly proxied: ProxiedPlayer,
    private readonly effects?: RconEffects,
  ) {
    this.uuid = proxied.uuid ?? "";
    this.name = proxied.username ?? "";
    this.protocolVersion = proxied.codec.protocolVersion;
  }

  /** The operator level the backend sent the client (`entity_status` 24–28), or 4 for a listed operator. */
  opLevel(): number {
    return Math.max(this.state.opLevel ?? 0, this.listedOperator ? 4 : 0);
  }

  /** The backend gives its own operator commands to its own operators: nothing to do at the gateway. */
  enableGameOperator(): void {}

  locale(): string {
    return this.proxied.locale ?? "en_us";
  }

  isOnline(): boolean {
    return !this.proxied.client.closed;
  }

  /** A card; a player who gets System's window (1.21.6+) finds a `[System]` button on it that opens the window. */
  sendCard(component: ChatComponent): void {
    if (!this.proxied.windowed || component.extra === undefined) {
      this.proxied.sendChat(component);
      return;
    }
    const text = (key: string): string => this.proxied.languages.format(this.locale(), key, []);
    this.proxied.sendChat({
      ...component,
      extra: [
        ...component.extra,
        { text: " " },
        {
          text: text("system.window.button"),
          color: "light_purple",
          clickEvent: { action: "custom", value: WINDOW_CLICKS.open },
          hoverText: { text: text("system.window.button.hover"), color: "gray" },
        },
      ],
    });
  }

  sendText(text: string): void {
    this.sendCard({ text });
  }

  sendActionBar(component: ChatComponent): void {
    this.proxied.send(actionBarPacket(this.proxied.dialect, component));
  }

  sendTitle(title: ChatComponent, subtitle: ChatComponent): void {
    for (const packet of titlePackets(this.proxied.dialect, title, subtitle)) this.proxied.send(packet);
  }

  inventory(): InventorySnapshot | undefined {
    return this.state.inventory();
  }

  stats(): PlayerStatsSnapshot {
    return this.state.stats();
  }

  async giveItem(itemName: string, count: number): Promise<boolean> {
    if (!Number.isInteger(count) || count <= 0) return false;
    return (await this.giveItems([{ item: itemName, count }])).given;
  }

  /** All or nothing over RCON; resolves once a backend save that began after the give has finished. */
  async giveItems(
    stacks: readonly GiveStack[],
    experience?: ExperienceGrant,
    signal?: AbortSignal,
  ): Promise<GiveOutcome> {
    if (this.effects === undefined) return { given: false, refusal: "unsupported" };
    return this.effects.give(this.#target(), stacks, experience, signal);
  }

  async takeItems(stacks: readonly GiveStack[]): Promise<TakeOutcome> {
    if (this.effects === undefined) return { taken: false, refusal: "unsupported" };
    return this.effects.take(this.#target(), stacks);
  }

  #target(): EffectTarget {
    return { name: this.name, liveInventory: () => this.inventory() };
  }

  /** Nothing of the player's is kept at the gateway: the backend saves its own players. */
  async save(): Promise<void> {}
}
