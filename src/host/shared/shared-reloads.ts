import { randomUUID } from "node:crypto";
import type { ContextType } from "../../agent/module/context-type.js";
import type { AssistantServer } from "../../assistant/assistant-server.js";
import { PostgresKnowledgeStore } from "../../data/knowledge/postgres/postgres-knowledge-store.js";
import type { OpenedStorage } from "../../data/network/open-storage.js";
import type { PostgresDatabase } from "../../data/network/postgres-database.js";
import { PostgresNotifier } from "../../data/network/postgres-notifier.js";
import type { GameBridge } from "../../game/game-bridge.js";
import { HELD_EFFECTS } from "../../module/builtin/deliveries/deliveries-service.js";
import { KNOWLEDGE_STORE } from "../../module/builtin/knowledge/knowledge-module.js";
import type { Logger } from "../../util/logger.js";
import { heldEffects } from "./held-effects.js";
import { NetworkDeliveries, tellArrived } from "./network-deliveries.js";

/** The channel every server of a network listens on; payloads say what to re-read, never the data itself. */
export const INVALIDATION_CHANNEL = "system_invalidate";

/** What a notification asks the other servers to re-read (`player`: one player's event tasks). */
export type InvalidationTopic = "reload" | "knowledge" | "player";

interface Invalidation {
  readonly origin: string;
  readonly topic: InvalidationTopic;
  /** The player whose event tasks to read again (topic `player`). */
  readonly player?: string;
}

/**
 * A server's part in a network (storage.json says `postgres`): the services it contributes to the assistant (the
 * shared knowledge store, the outbox's effects held for an admin), its reloads shared through LISTEN/NOTIFY (`/system reload` here tells the others,
 * which re-read their config files; a knowledge change tells them too), and its presence and deliveries
 * (network-deliveries.ts). On a files backend everything is a no-op.
 */
export interface NetworkLink {
  /** Services for AssistantServer.create (the shared knowledge store on PostgreSQL). */
  readonly services: readonly [ContextType<unknown>, unknown][];
  /** Pass as AssistantServer's `onReload`: tells the other servers an admin reloaded here. */
  readonly announceReload: () => void;
  /**
   * Pass as AssistantServer's `onPlayerAway`: a task of a player not online here waits; the server hosting them
   * reads their tasks again and runs it (they may have joined it before the task was queued here).
   */
  readonly announceAway: (playerId: string) => void;
  /**
   * Starts listening for the other servers' notifications, reloading `assistant` on theirs, and starts this
   * server's presence and deliveries (its players' joins and leaves come from `assistant`).
   */
  attach(assistant: AssistantServer): Promise<void>;
  close(): Promise<void>;
}

const NO_NETWORK: NetworkLink = {
  services: [],
  announceReload: () => {},
  announceAway: () => {},
  attach: async () => {},
  close: async () => {},
};

/**
 * The network link over the storage the host opened (none for `files`): it uses that storage's pool, already
 * migrated by openStorage, and closes none of it (the host closes the storage after the link).
 */
export const openNetworkLink = (options: {
  readonly storage: OpenedStorage;
  /** The host's bridge: network deliveries give items through it. */
  readonly bridge: GameBridge;
  readonly logger: Logger;
}): NetworkLink => {
  const { database, server, holder, leaseMillis } = options.storage;
  if (database === undefined || server === undefined || holder === undefined) return NO_NETWORK;
  return new SharedReloads(database, options.logger, {
    server,
    holder,
    bridge: options.bridge,
    ...(leaseMillis === undefined ? {} : { leaseMillis }),
  });
};

/** The network link over one PostgreSQL database (the storage's pool; a dedicated connection for LISTEN). */
export class SharedReloads implements NetworkLink {
  /** This process's origin: its own notifications come back to it and are ignored. */
  readonly origin = randomUUID();
  readonly services: readonly [ContextType<unknown>, unknown][];
  readonly #store: PostgresKnowledgeStore;
  #notifier: PostgresNotifier | undefined;
  #deliveries: NetworkDeliveries | undefined;
  #closed = false;

  constructor(
    private readonly database: PostgresDatabase,
    private readonly logger: Logger,
    /** This server's name and bridge, for presence and deliveries; none: reloads and knowledge only. */
    private readonly host?: {
      readonly server: string;
      readonly holder: string;
      readonly bridge: GameBridge;
      readonly leaseMillis?: number;
    },
  ) {
    this.#store = new PostgresKnowledgeStore(database.pool, { onChange: () => this.#publish("knowledge") });
    this.services = [
      [KNOWLEDGE_STORE, this.#store],
      ...(host === undefined
        ? []
        : [[HELD_EFFECTS, heldEffects(database.pool, host.server)] as [ContextType<unknown>, unknown]]),
    ];
  }

  readonly announceReload = (): void => this.#publish("reload");
  readonly announceAway = (playerId: string): void => this.#publish("player", playerId);

  async attach(assistant: AssistantServer): Promise<void> {
    if (this.host !== undefined)
      this.#deliveries = await NetworkDeliveries.start({
        database: this.database,
        ...this.host,
        lifecycles: assistant.infrastructure.lifecycles,
        arrived: tellArrived(assistant),
        logger: this.logger,
      });
    // the event tasks of players hosted here, read again and run (a task another server queued for them waits)
    const rereadTasks = async (playerIds: readonly string[]): Promise<void> => {
      for (const playerId of playerIds)
        if (assistant.infrastructure.players.isOnline(playerId))
          await assistant.events
            .playerJoined(playerId)
            .catch((error: unknown) =>
              this.logger.error(`storage: tasks of ${playerId} not read again`, error),
            );
    };
    const reload = async (why: string): Promise<void> => {
      await assistant.reloadConfig();
      this.logger.info(`storage: reloaded config (${why})`);
    };
    this.#notifier = await PostgresNotifier.start({
      connection: this.database.connection,
      channel: INVALIDATION_CHANNEL,
      logger: this.logger,
      onMessage: (payload) => {
        const message = parse(payload);
        if (message === undefined || message.origin === this.origin) return;
        // Knowledge is read from the database on every search: nothing is cached to drop.
        if (message.topic === "reload")
          reload(`/system reload on ${message.origin.slice(0, 8)}`).catch((error: unknown) =>
            this.logger.error("storage: a reload another server asked for failed", error),
          );
        if (message.topic === "player" && message.player !== undefined) void rereadTasks([message.player]);
      },
      // notifications sent while disconnected are lost: re-read what they could have invalidated
      onResync: async () => {
        await reload("after the database connection came back");
        await rereadTasks(assistant.infrastructure.players.everyoneOnline().map((player) => player.uuid));
      },
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#deliveries?.close();
    await this.#notifier?.close();
    await this.#store.close();
  }

  #publish(topic: InvalidationTopic, player?: string): void {
    if (this.#closed) return;
    const payload = JSON.stringify({
      origin: this.origin,
      topic,
      ...(player === undefined ? {} : { player }),
    } satisfies Invalidation);
    PostgresNotifier.publish(this.database.pool, INVALIDATION_CHANNEL, payload).catch((error: unknown) =>
      this.logger.warn(
        `storage: could not tell the other servers (${topic}): ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }
}

const parse = (payload: string): Invalidation | undefined => {
  try {
    const value = JSON.parse(payload) as Partial<Invalidation>;
    if (
      typeof value.origin !== "string" ||
      (value.topic !== "reload" && value.topic !== "knowledge" && value.topic !== "player")
    )
      return undefined;
    return {
      origin: value.origin,
      topic: value.topic,
      ...(typeof value.player === "string" ? { player: value.player } : {}),
    };
  } catch {
    return undefined;
  }
};
