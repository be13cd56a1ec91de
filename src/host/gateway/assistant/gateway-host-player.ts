import type { GiveOutcome, TakeOutcome } from "../../../game/game-bridge.js";
import type { InventorySnapshot, PlayerStatsSnapshot } from "../../../game/game-snapshots.js";
import type { ChatComponent } from "../../shared/chat-component.js";
import { actionBarPacket, titlePackets } from "../../shared/chat-packets.js";
import type { HostPlayer } from "../../shared/host-handler.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import { LivePlayerState } from "./live-player-state.js";

/**
 * The HostPlayer facade over one player relayed through the gateway. Everything shown goes to the client as the
 * gateway's own PLAY packets (system_chat, the action bar, titles); reads come from what the gateway saw in the
 * relayed packets. The gateway cannot change the world yet: every give and take is refused as `unsupported`
 * before anything is written.
 */
export class GatewayHostPlayer implements HostPlayer {
  readonly uuid: string;
  readonly name: string;
  readonly protocolVersion: number;
  readonly state = new LivePlayerState();
  /** Named in `ops` of System's server.json: an operator (level 4) for System whatever the backend sends. */
  listedOperator = false;

  constructor(readonly proxied: ProxiedPlayer) {
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

  sendCard(component: ChatComponent): void {
    this.proxied.sendChat(component);
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

  async giveItem(): Promise<boolean> {
    return false;
  }

  async giveItems(): Promise<GiveOutcome> {
    return { given: false, refusal: "unsupported" };
  }

  async takeItems(): Promise<TakeOutcome> {
    return { taken: false, refusal: "unsupported" };
  }

  /** Nothing of the player's is kept at the gateway: the backend saves its own players. */
  async save(): Promise<void> {}
}
