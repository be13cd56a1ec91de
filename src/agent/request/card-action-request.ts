import { Identifier } from "../../util/identifier.js";
import { STRING, StreamCodec, UUID } from "../../util/stream-codec.js";
import type { CardRef } from "../card/card-ref.js";
import { ACTION_ID_STREAM_CODEC, CARD_REF_STREAM_CODEC, CardLimits } from "../card/card-stream-codecs.js";
import type { CorrelatedRequest } from "./agent-request.js";

/**
 * A click on a card button: the card page it came from, the button's action id and string arguments. The server
 * checks the page and action against the card it sent, then runs a new structured request (no model routing).
 */
export class CardActionRequest implements CorrelatedRequest {
  static readonly TYPE = Identifier.parse("system:card_action");

  readonly type = CardActionRequest.TYPE;

  constructor(
    readonly requestId: string,
    readonly card: CardRef,
    readonly action: string,
    readonly args: readonly string[],
  ) {}

  static readonly STREAM_CODEC: StreamCodec<CardActionRequest> = StreamCodec.struct({
    requestId: UUID,
    card: CARD_REF_STREAM_CODEC,
    action: ACTION_ID_STREAM_CODEC,
    args: STRING(CardLimits.BUTTON_ARG_BYTES).list(CardLimits.BUTTON_ARGS),
  }).map(
    ({ requestId, card, action, args }) => new CardActionRequest(requestId, card, action, args),
    (request) => ({
      requestId: request.requestId,
      card: request.card,
      action: request.action,
      args: request.args,
    }),
  );
}
