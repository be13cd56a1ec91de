import type { Json } from "../../util/codec.js";
import type { RoutingPlayer } from "./routing-player.js";
import { normalizeText } from "./text-analyzer.js";

/** A remembered direct route: the module and its encoded input. */
export interface CachedRoute {
  readonly moduleId: string;
  readonly input: Json;
}

interface PlayerEntries {
  readonly stamp: string;
  readonly routes: Map<string, CachedRoute>;
}

/** Ids and numbers as written: routing reads them as `<id>` and `<num>`, but the cached input holds them. */
const VALUES = /[a-z0-9_.-]+:[a-z0-9_./-]+|\d+(?:\.\d+)?/gu;

/**
 * The text as a key: its routing form (case, spacing, punctuation and chat spellings aside) with its ids and
 * numbers as written, so `where do I get minecraft:andesite` never answers a later `… create:andesite_alloy`.
 */
const keyOf = (text: string): string =>
  `${normalizeText(text)}\u0000${(text.normalize("NFKC").toLowerCase().match(VALUES) ?? []).join(" ")}`;

/**
 * Per-player memory of successful direct routes, keyed by `keyOf` the text. Players never share entries; a
 * change of permission level, enabled features or memory generation drops the player's entries.
 */
export class IntentCache {
  readonly #players = new Map<string, PlayerEntries>();

  constructor(private readonly capacity: () => number) {}

  get(player: RoutingPlayer, text: string): CachedRoute | undefined {
    const entries = this.#current(player);
    const key = keyOf(text);
    const route = entries?.routes.get(key);
    if (entries === undefined || route === undefined) return undefined;
    entries.routes.delete(key);
    entries.routes.set(key, route);
    return { moduleId: route.moduleId, input: structuredClone(route.input) };
  }

  put(player: RoutingPlayer, text: string, route: CachedRoute): void {
    const capacity = this.capacity();
    if (capacity <= 0) return;
    let entries = this.#current(player);
    if (entries === undefined) {
      entries = { stamp: stampOf(player), routes: new Map() };
      this.#players.set(player.playerId, entries);
    }
    const key = keyOf(text);
    entries.routes.delete(key);
    entries.routes.set(key, { moduleId: route.moduleId, input: structuredClone(route.input) });
    while (entries.routes.size > capacity) {
      const oldest = entries.routes.keys().next().value;
      if (oldest === undefined) break;
      entries.routes.delete(oldest);
    }
  }

  /** Drops a player's entries (permission change, revoke, forget). */
  invalidate(playerId: string): void {
    this.#players.delete(playerId);
  }

  size(playerId: string): number {
    return this.#players.get(playerId)?.routes.size ?? 0;
  }

  #current(player: RoutingPlayer): PlayerEntries | undefined {
    const entries = this.#players.get(player.playerId);
    if (entries === undefined) return undefined;
    if (entries.stamp === stampOf(player)) return entries;
    this.#players.delete(player.playerId);
    return undefined;
  }
}

const stampOf = (player: RoutingPlayer): string =>
  `${player.generation}|${player.permissionLevel}|${[...player.features].sort().join(",")}`;
