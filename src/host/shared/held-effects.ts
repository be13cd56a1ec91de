import type { Pool } from "pg";
import {
  heldReason,
  holdAbandoned,
  resolveEffect,
  unconfirmedEffects,
} from "../../data/network/postgres-outbox.js";
import type { HeldEffect, HeldEffects } from "../../module/builtin/deliveries/deliveries-service.js";

/**
 * The network outbox's effects held for an admin, as `/system deliveries` on any server of the network lists and
 * settles them. Listing first holds what stopped servers left applying (their liveness lease expired), so the
 * admin sees them without waiting for this server's next lease renewal.
 */
export const heldEffects = (pool: Pool, server: string): HeldEffects => ({
  list: async (): Promise<HeldEffect[]> => {
    await holdAbandoned(pool, server);
    return (await unconfirmedEffects(pool)).map((effect) => ({
      id: effect.id,
      key: effect.idemKey,
      playerId: effect.playerId,
      payload: effect.payload,
      server: effect.server,
      reason: heldReason(effect),
      note: effect.note,
      heldAt: effect.updatedAt,
    }));
  },
  resolve: (id, decision) => resolveEffect(pool, id, decision),
});
