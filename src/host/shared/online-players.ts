import type {
  ExperienceGrant,
  GameBridge,
  GiveOutcome,
  GiveStack,
  KillReport,
  TakeOutcome,
} from "../../game/game-bridge.js";
import type { InventorySnapshot, PlayerStatsSnapshot } from "../../game/game-snapshots.js";
import type { Logger } from "../../util/logger.js";
import type { HostPlayer } from "./host-handler.js";

/**
 * The players connected to the host, as the assistant's GameBridge. It exists before the assistant (which reads
 * and gives through it) and before the game server (whose join and leave fill it). With `givesItems: false`
 * (the gateway) every give and take is refused as `unsupported` before a player is even asked.
 */
export class OnlinePlayers implements GameBridge {
  readonly #players = new Map<string, HostPlayer>();
  readonly #killListeners = new Set<(kill: KillReport) => void>();

  constructor(
    private readonly logger: Logger,
    private readonly options: { readonly givesItems?: boolean } = {},
  ) {}

  givesItems(): boolean {
    return this.options.givesItems ?? true;
  }

  add(player: HostPlayer): void {
    this.#players.set(player.uuid, player);
  }

  remove(uuid: string): void {
    this.#players.delete(uuid);
  }

  get(uuid: string): HostPlayer | undefined {
    return this.#players.get(uuid);
  }

  all(): HostPlayer[] {
    return [...this.#players.values()];
  }

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

  /**
   * Gives through the player's HostPlayer: all stacks or none, resolved only once the player's data file holding
   * them is durable. A host error is passed on, never turned into a refusal: the inventory may have changed.
   */
  async giveItems(
    playerId: string,
    stacks: readonly GiveStack[],
    experience?: ExperienceGrant,
    signal?: AbortSignal,
  ): Promise<GiveOutcome> {
    const player = this.#players.get(playerId);
    if (player === undefined || !player.isOnline()) return { given: false, refusal: "offline" };
    if (!this.givesItems()) return { given: false, refusal: "unsupported" };
    try {
      return await player.giveItems(stacks, experience, signal);
    } catch (error) {
      this.logger.error(`giving to ${player.name} may not be saved`, error);
      throw error;
    }
  }

  onKill(listener: (kill: KillReport) => void): () => void {
    this.#killListeners.add(listener);
    return () => this.#killListeners.delete(listener);
  }

  /** The host saw a player kill an entity; a listener that throws is logged, the others still hear it. */
  reportKill(kill: KillReport): void {
    for (const listener of this.#killListeners)
      try {
        listener(kill);
      } catch (error) {
        this.logger.error(`a kill listener failed for ${kill.playerId}`, error);
      }
  }

  /** Takes through the player's HostPlayer, all stacks or none; a host error is passed on (the outcome is unknown). */
  async takeItems(playerId: string, stacks: readonly GiveStack[]): Promise<TakeOutcome> {
    const player = this.#players.get(playerId);
    if (player === undefined || !player.isOnline()) return { taken: false, refusal: "offline" };
    if (!this.givesItems()) return { taken: false, refusal: "unsupported" };
    try {
      return await player.takeItems(stacks);
    } catch (error) {
      this.logger.error(`taking from ${player.name} may not be saved`, error);
      throw error;
    }
  }
}
