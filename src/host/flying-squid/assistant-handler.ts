import { argument, greedyString, literal, RootCommandNode } from "@jsprismarine/brigadier";
import type CommandNode from "@jsprismarine/brigadier/tree/CommandNode";
import { type CommandSource, RecordingCommandSource } from "../../agent/command/command-source.js";
import type { AssistantServer } from "../../assistant/assistant-server.js";
import type { PresentedCard } from "../../assistant/card-presenter.js";
import type { PlayerInfo } from "../../assistant/player-directory.js";
import type { GameBridge } from "../../game/game-bridge.js";
import type { InventorySnapshot, PlayerStatsSnapshot } from "../../game/game-snapshots.js";
import { normalizeLocale } from "../../util/language.js";
import type { Logger } from "../../util/logger.js";
import { cardComponent } from "./card-component.js";
import { brigadierTree } from "./declare-commands.js";
import type { HostCommandTree, HostHandler, HostPlayer } from "./host-handler.js";

/**
 * Connects the flying-squid host to an AssistantServer: forwards `/system …` and shortcut lines, renders the
 * replies as chat cards, and serves as the GameBridge (snapshots and item delivery) over the connected players.
 */
export class AssistantHostHandler implements HostHandler, GameBridge {
  readonly #players = new Map<string, HostPlayer>();
  #assistant: AssistantServer | undefined;

  constructor(private readonly logger: Logger) {}

  #refresh: ((uuid: string) => void) | undefined;

  attach(assistant: AssistantServer): void {
    this.#assistant = assistant;
    // A permission change (op level, grant, revoke, reset, mode) re-sends that player's command tree.
    assistant.onNotice((playerId, card) => this.#players.get(playerId)?.sendCard(render(card)));
    assistant.infrastructure.lifecycles.register({
      onPermissionChange: (playerId) => this.#refresh?.(playerId),
      onRevoke: (playerId) => this.#refresh?.(playerId),
    });
  }

  /** The running host, so command trees can be re-sent after permission changes. */
  useHost(host: { refreshCommands(uuid?: string): void }): void {
    this.#refresh = (uuid) => {
      if (this.#players.has(uuid)) host.refreshCommands(uuid);
    };
  }

  get assistant(): AssistantServer {
    if (this.#assistant === undefined) throw new Error("assistant is not attached");
    return this.#assistant;
  }

  /** `system <text>` is the text after the root; any other base is a shortcut run as an explicit command. */
  async onCommand(player: HostPlayer, line: string): Promise<void> {
    const [base = "", ...rest] = line.trim().split(/\s+/u);
    const body = line.trim().slice(base.length).trim();
    const text = base.toLowerCase() === "system" ? this.#systemText(body) : `/${[base, ...rest].join(" ")}`;
    const reply = await this.assistant.handle(info(player), text);
    if (reply.card !== undefined) player.sendCard(render(reply.card));
  }

  async completions(player: HostPlayer, line: string): Promise<readonly string[]> {
    const trimmed = line.replace(/^\/?system\s+/iu, "");
    return this.assistant.completions(info(player), trimmed);
  }

  commandTree(player: HostPlayer): HostCommandTree | undefined {
    const assistant = this.assistant;
    const registry = assistant.infrastructure.engine.modules().commands();
    const snapshot = assistant.permissions.snapshot(player.uuid);
    const source = new RecordingCommandSource({
      playerId: player.uuid,
      permissionLevel: snapshot.opLevel,
      features: snapshot.features,
    });
    const system = literal<CommandSource>("system")
      .then(argument<CommandSource, string>("instruction", greedyString()).executes(async () => 1))
      .build();
    for (const child of registry.root().getChildren()) system.addChild(child as CommandNode<CommandSource>);
    const root = new RootCommandNode<CommandSource>();
    root.addChild(system);
    for (const shortcut of assistant.shortcuts()) {
      const node = registry.root().getChild(shortcut);
      if (node !== undefined) root.addChild(node as CommandNode<CommandSource>);
    }
    return brigadierTree(root as CommandNode<CommandSource>, source as CommandSource);
  }

  async onJoin(player: HostPlayer): Promise<void> {
    this.#players.set(player.uuid, player);
    await this.assistant.join(info(player));
    this.#refresh?.(player.uuid);
  }

  async onLeave(player: HostPlayer): Promise<void> {
    this.#players.delete(player.uuid);
    await this.assistant.leave(player.uuid);
  }

  // GameBridge ---------------------------------------------------------------------------------------------

  isOnline(playerId: string): boolean {
    return this.#players.get(playerId)?.isOnline() ?? false;
  }

  playerName(playerId: string): string | undefined {
    return this.#players.get(playerId)?.name;
  }

  inventory(playerId: string): InventorySnapshot | undefined {
    const player = this.#players.get(playerId);
    return player?.isOnline() === true ? player.inventory() : undefined;
  }

  stats(playerId: string): PlayerStatsSnapshot | undefined {
    const player = this.#players.get(playerId);
    return player?.isOnline() === true ? player.stats() : undefined;
  }

  async giveItem(playerId: string, item: string, count: number): Promise<boolean> {
    const player = this.#players.get(playerId);
    if (player === undefined || !player.isOnline()) return false;
    try {
      return await player.giveItem(item, count);
    } catch (error) {
      this.logger.error(`giving ${count} ${item} to ${player.name} failed`, error);
      return false;
    }
  }

  /** A known command after `/system` is explicit (so a typo gets its usage); anything else is plain text. */
  #systemText(body: string): string {
    const head = body.split(/\s+/u)[0]?.toLowerCase() ?? "";
    if (head === "card") return body;
    const module = this.assistant.infrastructure.engine.modules().commands().moduleOf(head);
    return module === undefined ? body : `/${body}`;
  }
}

const info = (player: HostPlayer): PlayerInfo => ({
  uuid: player.uuid,
  name: player.name,
  locale: normalizeLocale(player.locale()),
  opLevel: player.opLevel(),
});

const render = (card: PresentedCard) =>
  cardComponent({ title: card.title, lines: card.lines, buttons: card.buttons });
