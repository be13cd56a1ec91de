import { Identifier } from "../../util/identifier.js";
import { StreamCodec } from "../../util/stream-codec.js";
import type { AgentResponse } from "./agent-response.js";

/** Which client view to open: the one in use, the simple chat view or the full panel. Ordinal order is wire format. */
export const OpenTarget = { CURRENT: "CURRENT", SIMPLE: "SIMPLE", FULL: "FULL" } as const;
export type OpenTarget = (typeof OpenTarget)[keyof typeof OpenTarget];

/** Navigation: asks the client to open a view. */
export class OpenResponse implements AgentResponse {
  static readonly TYPE = Identifier.parse("system:open");

  readonly type = OpenResponse.TYPE;

  constructor(readonly target: OpenTarget) {}

  static readonly STREAM_CODEC: StreamCodec<OpenResponse> = StreamCodec.ordinal<OpenTarget>([
    "CURRENT",
    "SIMPLE",
    "FULL",
  ]).map(
    (target) => new OpenResponse(target),
    (response) => response.target,
  );
}
