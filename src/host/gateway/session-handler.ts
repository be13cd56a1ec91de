import type { DecodedPacket } from "./protocol/packet-codec.js";

/** What becomes of a frame a handler read: relayed to the other side as it came, or consumed by the gateway. */
export type Verdict = "relay" | "consume";

/**
 * The gateway's handling of one protocol state on one side (Velocity's session handlers). It names the few
 * packets it reads; every other frame of that state is relayed unchanged without being decoded, and so is a
 * frame of a named packet that fails to decode.
 */
export interface SessionHandler {
  readonly reads: ReadonlySet<string>;
  /** Packets handed over as their frame alone, never decoded (their content may be modded): `params` is empty. */
  readonly undecoded?: ReadonlySet<string>;
  handle(packet: DecodedPacket): Verdict;
}
