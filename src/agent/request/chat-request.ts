import { Identifier } from "../../util/identifier.js";
import { STRING, StreamCodec, UUID } from "../../util/stream-codec.js";
import type { CorrelatedRequest } from "./agent-request.js";

/** Free text or a command line typed by the player, answered by a ReplyResponse with the same request id. */
export class ChatRequest implements CorrelatedRequest {
  static readonly TYPE = Identifier.parse("system:chat");
  /** Chat text limit on the wire; the executor applies the policy's own (smaller) input limit. */
  static readonly MAX_TEXT_BYTES = 16_384;

  readonly type = ChatRequest.TYPE;

  constructor(
    readonly requestId: string,
    readonly text: string,
  ) {}

  static readonly STREAM_CODEC: StreamCodec<ChatRequest> = StreamCodec.struct({
    requestId: UUID,
    text: STRING(ChatRequest.MAX_TEXT_BYTES),
  }).map(
    ({ requestId, text }) => new ChatRequest(requestId, text),
    (request) => ({ requestId: request.requestId, text: request.text }),
  );
}
