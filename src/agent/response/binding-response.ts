import { Identifier } from "../../util/identifier.js";
import { StreamCodec } from "../../util/stream-codec.js";
import type { AgentResponse } from "./agent-response.js";

/**
 * A change of the player's AI binding: BOUND (access granted), REVOKED (access removed, local state must go),
 * INVALIDATED (the session is stale: fetch state again). Ordinal order is wire format.
 */
export const BindingState = { BOUND: "BOUND", REVOKED: "REVOKED", INVALIDATED: "INVALIDATED" } as const;
export type BindingState = (typeof BindingState)[keyof typeof BindingState];

/** Tells the client its binding changed. */
export class BindingResponse implements AgentResponse {
  static readonly TYPE = Identifier.parse("system:binding");

  readonly type = BindingResponse.TYPE;

  constructor(readonly state: BindingState) {}

  static readonly STREAM_CODEC: StreamCodec<BindingResponse> = StreamCodec.ordinal<BindingState>([
    "BOUND",
    "REVOKED",
    "INVALIDATED",
  ]).map(
    (state) => new BindingResponse(state),
    (response) => response.state,
  );
}
