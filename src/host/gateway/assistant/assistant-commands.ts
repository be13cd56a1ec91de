import type { AssistantServer } from "../../../assistant/assistant-server.js";
import type { Logger } from "../../../util/logger.js";
import type { AssistantHostHandler } from "../../shared/assistant-handler.js";
import type { DeclareCommandsPacket } from "../../shared/declare-commands.js";
import { AssistantWindow } from "../dialog/assistant-window.js";
import type { RconEffects } from "../effects/rcon-effects.js";
import type { GatewayCommands } from "../gateway-commands.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import { GatewayHostPlayer } from "./gateway-host-player.js";
import { PlayPackets } from "./play-packets.js";

/**
 * The gateway's commands facade over the assistant: the same host handler the embedded world uses, with a
 * GatewayHostPlayer per relayed player. A player joins the assistant when the backend's `login` reaches them
 * and leaves when their connection ends; their tree is sent again whenever their commands change. Players whose
 * client draws dialogs (1.21.6+) also get System's window: `/system` alone opens it.
 */
export class AssistantGatewayCommands implements GatewayCommands {
  readonly #players = new Map<ProxiedPlayer, GatewayHostPlayer>();
  readonly window: AssistantWindow;

  /**
   * `operators` are the names in `ops` of System's server.json (any case): operators for System besides those
   * the backend made operators.
   */
  constructor(
    private readonly assistant: AssistantServer,
    private readonly handler: AssistantHostHandler,
    private readonly logger: Logger,
    private readonly operators: ReadonlySet<string> = new Set(),
    /** World effects over the backend's RCON; unset, every give is refused as unsupported. */
    private readonly effects?: RconEffects,
  ) {
    this.window = new AssistantWindow(assistant, handler, (proxied) => this.#players.get(proxied), logger);
    handler.onCommandsChanged((uuid) => {
      for (const player of this.#players.values())
        if (player.uuid === uuid) player.proxied.resendCommandTree();
    });
  }

  /** The host player of a relayed player who has joined (undefined before the backend's `login`). */
  player(proxied: ProxiedPlayer): GatewayHostPlayer | undefined {
    return this.#players.get(proxied);
  }

  join(proxied: ProxiedPlayer): void {
    // a re-entry from configuration brings another `login`: the player is still the same session
    if (this.#players.has(proxied) || proxied.uuid === undefined) return;
    const player = new GatewayHostPlayer(proxied, this.effects);
    player.listedOperator = this.operators.has(player.name.toLowerCase());
    this.#players.set(proxied, player);
    proxied.observe(this.#observer(player));
    proxied.onClose(() => {
      this.#players.delete(proxied);
      this.window.forget(proxied);
      this.#settle(this.handler.onLeave(player), `${player.name} leaving`);
    });
    this.#settle(this.handler.onJoin(player), `${player.name} joining`);
  }

  tree(proxied: ProxiedPlayer): DeclareCommandsPacket | undefined {
    const player = this.#players.get(proxied);
    return player === undefined ? undefined : this.handler.commandTree(player)?.toPacket();
  }

  /** `system …`, and a shortcut (`reason …`) while its feature is installed. */
  owns(line: string): boolean {
    const base = (/^\S*/u.exec(line.trim())?.[0] ?? "").toLowerCase();
    return base === "system" || this.assistant.commands.shortcuts().includes(base);
  }

  run(proxied: ProxiedPlayer, line: string): void {
    const player = this.#players.get(proxied);
    if (player === undefined) return;
    if (proxied.windowed && /^system$/iu.test(line.trim())) this.window.open(proxied);
    else this.#settle(this.handler.onCommand(player, line), `/${line} of ${player.name}`);
  }

  async complete(proxied: ProxiedPlayer, line: string): Promise<readonly string[]> {
    const player = this.#players.get(proxied);
    return player === undefined ? [] : this.handler.completions(player, line);
  }

  /** The relayed packets feed the player's state, and what happens to them becomes game events. */
  #observer(player: GatewayHostPlayer): PlayPackets {
    const { handler } = this;
    return new PlayPackets(
      player.proxied.codec,
      player.state,
      {
        died: () => this.#settle(handler.onDeath(player), `death of ${player.name}`),
        dimensionChanged: (dimension) =>
          this.#settle(handler.onDimensionChange(player, dimension), `${player.name} entering ${dimension}`),
        advanced: (advancement) =>
          this.#settle(handler.onAdvancement(player, advancement), `${advancement} of ${player.name}`),
        // after the join in progress, which set the level the player had when it began
        opLevelChanged: () =>
          this.#settle(
            this.assistant.turnSettled(player.uuid).then(() => handler.onOperatorChange(player)),
            `operator level of ${player.name}`,
          ),
      },
      (id) => player.proxied.items.name(id),
    );
  }

  #settle(work: Promise<void> | void, what: string): void {
    Promise.resolve(work).catch((error: unknown) => this.logger.error(`${what} failed`, error));
  }
}
