import { Identifier } from "../../util/identifier.js";
import { StreamCodec, UUID } from "../../util/stream-codec.js";
import { AgentResult } from "../agent-result.js";
import { CARD_UPDATE_STREAM_CODEC, type CardUpdate } from "../card/card-update.js";
import type { AgentResponse } from "./agent-response.js";

/** Wire limit of an encoded AgentResult (JSON through AgentResult.CODEC). */
export const MAX_RESULT_BYTES = 262_144;

/** AgentResult on the wire: its JSON form through AgentResult.CODEC, so no Failure class ever travels. */
export const AGENT_RESULT_STREAM_CODEC: StreamCodec<AgentResult> = StreamCodec.json(
  AgentResult.CODEC,
  MAX_RESULT_BYTES,
);

/**
 * The answer to one correlated request (chat, invoke, card action): completes that request whether or not it
 * carries a card. The card update shows a new card or replaces the page a button came from.
 */
export class ReplyResponse implements AgentResponse {
  static readonly TYPE = Identifier.parse("system:reply");

  readonly type = ReplyResponse.TYPE;

  constructor(
    readonly requestId: string,
    readonly result: AgentResult,
    readonly card?: CardUpdate,
  ) {}

  static readonly STREAM_CODEC: StreamCodec<ReplyResponse> = StreamCodec.struct({
    requestId: UUID,
    result: AGENT_RESULT_STREAM_CODEC,
    card: CARD_UPDATE_STREAM_CODEC.optional(),
  }).map(
    ({ requestId, result, card }) => new ReplyResponse(requestId, result, card),
    (reply) => ({ requestId: reply.requestId, result: reply.result, card: reply.card }),
  );
}
