import type { AgentLifecycles } from "../../agent/agent-lifecycle.js";
import { AgentResult } from "../../agent/agent-result.js";
import { present } from "../../agent/card/card-text.js";
import type { AssistantServer } from "../../assistant/assistant-server.js";
import type { PostgresDatabase } from "../../data/network/postgres-database.js";
import { type Lease, PostgresLeases } from "../../data/network/postgres-leases.js";
import { type ApplyOutcome, type OutboxEffect, PostgresOutbox } from "../../data/network/postgres-outbox.js";
import { PostgresPresence, type PresenceToken } from "../../data/network/postgres-presence.js";
import type { GameBridge, GiveStack } from "../../game/game-bridge.js";
import { CHECK_IN_CARD } from "../../module/builtin/check-in/check-in-card.js";
import { itemNamer } from "../../module/builtin/check-in/check-in-feature.js";
import type { Logger } from "../../util/logger.js";

/** How long this server's liveness lease lasts without renewal (storage.json `leaseMillis`); renewed every third. */
const SERVER_LEASE_MILLIS = 30_000;
/** How often pending effects of the players hosted here are looked for (also at every join). */
const DELIVER_MILLIS = 1_000;

/** The key of a server's liveness lease (the outbox reads it to tell a stopped server's effects). */
export const serverLeaseKey = (server: string): string => `server:${server}`;

/**
 * A server's part in a network's presence and deliveries: it holds its liveness lease while it runs, records
 * which players it hosts (a join epoch each), and gives the in-game effects of the outbox (check-in rewards)
 * to the players it hosts, whichever server recorded them. An effect whose give may have happened without a
 * confirmation is held for an admin, never given again by itself.
 */
export class NetworkDeliveries {
  readonly #presence: PostgresPresence;
  readonly #outbox: PostgresOutbox;
  readonly #tokens = new Map<string, PresenceToken>();
  #delivering: Promise<void> | undefined;
  #again = false;
  #closed = false;
  #timers: NodeJS.Timeout[] = [];
  /** Renewals in a row that reached the database. */
  #reachable = 0;

  private constructor(
    database: PostgresDatabase,
    readonly server: string,
    private readonly leases: PostgresLeases,
    private lease: Lease,
    private readonly leaseMillis: number,
    bridge: GameBridge,
    private readonly logger: Logger,
    arrived: (effect: OutboxEffect) => void,
  ) {
    this.#presence = new PostgresPresence(database.pool, server);
    this.#outbox = new PostgresOutbox({
      pool: database.pool,
      server,
      apply: async (effect) => {
        const outcome = await give(bridge, effect, logger);
        if (outcome === "applied") arrived(effect);
        return outcome;
      },
      // no world here tells whether an interrupted give happened: such effects wait for an admin
      logger,
    });
  }

  /**
   * Takes this server's liveness lease (its own lease left by a crash of this data folder is taken over), clears
   * the presence a crash left, settles the effects this server left applying and holds those of stopped servers.
   */
  static async start(options: {
    readonly database: PostgresDatabase;
    readonly server: string;
    /** This data folder on this machine: a lease of the same holder is this server's previous run. */
    readonly holder: string;
    /** How long the liveness lease lasts without renewal (default 30 s). */
    readonly leaseMillis?: number;
    readonly bridge: GameBridge;
    readonly lifecycles: AgentLifecycles;
    /** Told of each effect given here (the player's notice). */
    readonly arrived: (effect: OutboxEffect) => void;
    readonly logger: Logger;
  }): Promise<NetworkDeliveries> {
    const { database, server, logger } = options;
    const leaseMillis = options.leaseMillis ?? SERVER_LEASE_MILLIS;
    const leases = new PostgresLeases(database.pool, options.holder);
    const key = serverLeaseKey(server);
    let lease = await leases.acquire(key, leaseMillis);
    if (lease === undefined) {
      const held = await leases.current(key);
      // this data folder's previous run (its lock says that process is gone) is taken over; another holder not
      if (held !== undefined && held.owner !== options.holder)
        throw new Error(
          `storage: the server name ${server} is in use by ${held.owner}; give each server its own`,
        );
      if (held !== undefined) await leases.release(held);
      lease = await leases.acquire(key, leaseMillis);
      if (lease === undefined) throw new Error(`storage: the server name ${server} is in use`);
    }
    const deliveries = new NetworkDeliveries(
      database,
      server,
      leases,
      lease,
      leaseMillis,
      options.bridge,
      logger,
      options.arrived,
    );
    await deliveries.#presence.clearServer();
    const recovered = await deliveries.#outbox.recover();
    if (recovered.unconfirmed > 0)
      logger.warn(
        `deliveries: ${recovered.unconfirmed} gives interrupted here are held for an admin to check`,
      );
    await deliveries.#outbox.recoverAbandoned();
    options.lifecycles.register({
      onJoin: (playerId) => deliveries.#joined(playerId),
      onDisconnect: (playerId) => deliveries.#left(playerId),
    });
    deliveries.#timers = [
      setInterval(() => deliveries.#renew(), leaseMillis / 3),
      setInterval(() => void deliveries.deliver(), DELIVER_MILLIS),
    ];
    for (const timer of deliveries.#timers) timer.unref();
    logger.info(`deliveries: server ${server} of the network`);
    return deliveries;
  }

  /** Gives the pending effects of the players hosted here; one round at a time, another after if asked meanwhile. */
  deliver(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#delivering !== undefined) {
      this.#again = true;
      return this.#delivering;
    }
    this.#delivering = (async () => {
      do {
        this.#again = false;
        await this.#outbox
          .deliver()
          .catch((error: unknown) => this.logger.warn(`deliveries: ${(error as Error).message}`));
      } while (this.#again && !this.#closed);
    })().finally(() => {
      this.#delivering = undefined;
    });
    return this.#delivering;
  }

  /** Stops delivering, clears this server's presence and ends its liveness lease (a clean stop). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    await this.#delivering;
    await this.#presence.clearServer().catch(() => undefined);
    await this.leases.release(this.lease).catch(() => undefined);
  }

  async #joined(playerId: string): Promise<void> {
    const token = await this.#presence.join(playerId);
    this.#tokens.set(playerId, token);
    await this.deliver();
  }

  async #left(playerId: string): Promise<void> {
    const token = this.#tokens.get(playerId);
    this.#tokens.delete(playerId);
    // a later join elsewhere already won: its presence stays
    if (token !== undefined) await this.#presence.quit(token);
  }

  #renew(): void {
    this.leases.renew(this.lease, this.leaseMillis).then(
      (renewed) => {
        if (renewed !== undefined) this.lease = renewed;
        else
          this.logger.error(`deliveries: the liveness lease of ${this.server} was taken by another server`);
        // Another server's expired lease means it stopped only once the database has been reachable for a
        // whole renewal period here: after an outage, every running server renews within one period.
        if (this.#reachable++ >= 1) this.#outbox.recoverAbandoned().catch(() => undefined);
      },
      (error: unknown) => {
        this.#reachable = 0;
        this.logger.warn(`deliveries: lease not renewed: ${(error as Error).message}`);
      },
    );
  }
}

/** Gives an effect's items: applied once saved; offline or no room waits (pending); a throw is an unknown outcome. */
const give = async (bridge: GameBridge, effect: OutboxEffect, logger: Logger): Promise<ApplyOutcome> => {
  const payload = effect.payload as { kind?: string; items?: GiveStack[] };
  if (payload.kind !== "give_items" || !Array.isArray(payload.items)) return "refused";
  if (!bridge.isOnline(effect.playerId)) return "absent";
  const outcome = await bridge.giveItems(effect.playerId, payload.items);
  if (outcome.given) return "applied";
  if (outcome.refusal === "offline" || outcome.refusal === "no_room" || outcome.refusal === "unavailable")
    return "absent";
  logger.warn(`deliveries: ${effect.idemKey} refused by the game (${outcome.refusal})`);
  return "refused";
};

/** Tells the player a check-in reward given here arrived, with the card of the check-in's own delivery. */
export const tellArrived =
  (assistant: AssistantServer) =>
  (effect: OutboxEffect): void => {
    const payload = effect.payload as { items?: GiveStack[]; reason?: string };
    const day = /^check_in:(\d{4}-\d{2}-\d{2})$/.exec(payload.reason ?? "")?.[1];
    if (day === undefined || !Array.isArray(payload.items)) return;
    const locale = assistant.infrastructure.players.online(effect.playerId)?.locale ?? "en_us";
    const name = itemNamer(assistant.infrastructure.catalog);
    const items = payload.items.map((stack) => ({ ...stack, name: name(stack.item, locale) }));
    const card = { status: "delivered", day, streak: 0, total: 0, items, deliveryQueued: true } as const;
    assistant.notify(effect.playerId, AgentResult.success(undefined, present(CHECK_IN_CARD.card(card))));
  };
