import type { UnconfirmedEvents } from "../../../agent/execution/unconfirmed-events.js";
import { ContextType } from "../../../agent/module/context-type.js";
import type { Json } from "../../../util/codec.js";

/**
 * Durable deliveries whose effect could not be confirmed (a give interrupted by a crash), with the admin's two
 * resolutions. The assembly provides the EventExecutor, which holds those tasks UNCONFIRMED in the journal.
 */
export const DELIVERIES = ContextType.of<UnconfirmedEvents>("system:deliveries");

/** An in-game effect of a network's shared outbox whose give may have happened without a confirmation. */
export interface HeldEffect {
  /** Its row in the outbox: what a resolution names. */
  readonly id: number;
  /** Its idempotency key, the same on every server (the short reference is made from it). */
  readonly key: string;
  readonly playerId: string;
  /** What it gives (`items: [{ item, count }]` for a give). */
  readonly payload: Json;
  /** The server that held it while giving, when known. */
  readonly server: string | undefined;
  /** Why it is held: its server stopped while giving, or the give failed mid-way; `note` otherwise. */
  readonly reason: "server_stopped" | "outcome_unknown" | undefined;
  /** The outbox's own note, for a reason it has no name for. */
  readonly note: string | undefined;
  /** When it was held (epoch milliseconds). */
  readonly heldAt: number;
}

/**
 * The network's effects held for an admin, on every server of a network (absent on a single server). Settling
 * one is done once: the second resolution of the same effect returns false.
 */
export interface HeldEffects {
  /** Held effects, oldest first, whichever server held them (effects of servers that stopped included). */
  list(): Promise<HeldEffect[]>;
  /** `done`: the admin found it given, nothing more happens; `redeliver`: the server hosting the player gives it. */
  resolve(id: number, decision: "done" | "redeliver"): Promise<boolean>;
}

/** Provided by the network link when the storage is PostgreSQL; `/system deliveries` lists these too. */
export const HELD_EFFECTS = ContextType.of<HeldEffects>("system:held_effects");
