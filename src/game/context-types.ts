import type { AgentLifecycle } from "../agent/agent-lifecycle.js";
import type { AgentResult } from "../agent/agent-result.js";
import type { CardRegistry } from "../agent/card/card-registry.js";
import type { NestedWorkflows } from "../agent/execution/agent-engine.js";
import type { EventAdmission, EventSubmission } from "../agent/execution/event-executor.js";
import { ContextType } from "../agent/module/context-type.js";
import type { Availability } from "../agent/routing/routing-player.js";
import type { AgentStore } from "../agent/storage/agent-store.js";
import type { Languages } from "../util/language.js";
import type { Logger } from "../util/logger.js";
import type { ItemCatalog } from "./data/item-catalog.js";
import type { ItemSources } from "./data/item-sources.js";
import type { GameBridge } from "./game-bridge.js";

/** Where durable events are offered (the EventExecutor satisfies it); a feature never holds the executor itself. */
export interface EventSink {
  submit(event: EventSubmission): Promise<EventAdmission>;
}

/** The server clock and its time zone: "today" of a daily feature is the local day of this zone. */
export interface GameClock {
  now(): number;
  /** An IANA zone such as `Asia/Shanghai`; the process zone when the host has no setting. */
  readonly timeZone: string;
}

/** The process clock in the process time zone. */
export const systemClock = (): GameClock => ({
  now: () => Date.now(),
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
});

/**
 * The services the AssistantServer injects into game features through ModuleContext. Each feature states
 * which it needs (`get`, installation fails without it) and which it only uses when present (`find`).
 */
export const GameContextTypes = {
  /** Snapshots of the running game and item delivery (main-thread bridge). */
  GAME_BRIDGE: ContextType.of<GameBridge>("system:game_bridge"),
  /** Item ids and names (en_us, zh_cn) of the game version. */
  ITEM_CATALOG: ContextType.of<ItemCatalog>("system:item_catalog"),
  /** Crafting recipes, block loot and entity loot by item. */
  ITEM_SOURCES: ContextType.of<ItemSources>("system:item_sources"),
  /** Player files (module storages) with transactions. */
  AGENT_STORE: ContextType.of<AgentStore>("system:agent_store"),
  /** Durable event tasks (the EventExecutor). */
  EVENTS: ContextType.of<EventSink>("system:events"),
  /** The card types the server decodes; features register theirs while installing. */
  CARDS: ContextType.of<CardRegistry>("system:cards"),
  /** Translation tables: help shows a module's translated description when one exists. */
  LANGUAGES: ContextType.of<Languages>("system:languages"),
  /** The server log: a feature reports what an admin must see (a broken quest file) in one line each. */
  LOGGER: ContextType.of<Logger>("system:logger"),
  /** The clock of daily features; the system clock when absent. */
  CLOCK: ContextType.of<GameClock>("system:clock"),
  /** A player's operator level (0–4), for help of commands guarded by `requires`; 0 when absent. */
  PERMISSION_LEVEL: ContextType.of<(playerId: string) => number>("system:permission_level"),
  /** The host's module filter (execution mode, admin AI rules) that routing also applies; help hides what it refuses. */
  AVAILABILITY: ContextType.of<Availability>("system:availability"),
  /** Runs installed workflows nested in a running request (free chat's catalog), under its counters. */
  WORKFLOWS: ContextType.of<NestedWorkflows>("system:workflows"),
  /** Lifecycle hooks of players (join, leave, revoke, reset): a feature cleans or repairs its own records. */
  LIFECYCLES: ContextType.of<{ register(hook: AgentLifecycle): void }>("system:lifecycles"),
  /** Shows a result's card to its player now, beside the request's own reply (a nested workflow's real card). */
  PLAYER_NOTICES: ContextType.of<PlayerNotices>("system:player_notices"),
} as const;

/** Where a card reaches its player outside the reply of their request; nothing when they are offline. */
export type PlayerNotices = (playerId: string, result: AgentResult) => void;
