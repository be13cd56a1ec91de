import type { CommandIdentity } from "../command/command-source.js";

/** Who a text is routed for: command identity plus locale, AI standing and memory generation. */
export interface RoutingPlayer extends CommandIdentity {
  readonly locale: string;
  /** False when the admin or the player turned AI off: no model routing, fallback cards instead. */
  readonly aiEnabled: boolean;
  /** The player's memory generation now; cache entries from older generations are ignored and dropped. */
  readonly generation: number;
}

/** Whether a module may be selected by this player now; the host injects its permission filter. */
export type Availability = (playerId: string, moduleId: string) => boolean;
