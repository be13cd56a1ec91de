import { Identifier } from "../../util/identifier.js";
import { StreamCodec } from "../../util/stream-codec.js";
import { TEXT_STREAM_CODEC } from "../card/card-stream-codecs.js";
import { CARD_UPDATE_STREAM_CODEC, type CardUpdate } from "../card/card-update.js";
import type { Text } from "../text.js";
import type { AgentResponse } from "./agent-response.js";

/**
 * A message not tied to a request (an event result, a delivered reward, a refused frame): it goes straight into
 * the client's message queue, optionally with a card update.
 */
export class NoticeResponse implements AgentResponse {
  static readonly TYPE = Identifier.parse("system:notice");

  readonly type = NoticeResponse.TYPE;

  constructor(
    readonly message: Text,
    readonly card?: CardUpdate,
  ) {}

  static readonly STREAM_CODEC: StreamCodec<NoticeResponse> = StreamCodec.struct({
    message: TEXT_STREAM_CODEC,
    card: CARD_UPDATE_STREAM_CODEC.optional(),
  }).map(
    ({ message, card }) => new NoticeResponse(message, card),
    (notice) => ({ message: notice.message, card: notice.card }),
  );
}
