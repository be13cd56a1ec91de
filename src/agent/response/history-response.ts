import { Identifier } from "../../util/identifier.js";
import { F64, STRING, StreamCodec, StreamDecodeError } from "../../util/stream-codec.js";
import { AgentResult } from "../agent-result.js";
import type { CardView } from "../card/card-builder.js";
import { READ_ONLY_VIEW_STREAM_CODEC } from "../card/card-stream-codecs.js";
import type { ConversationTurn } from "../storage/conversation-memory.js";
import type { AgentResponse } from "./agent-response.js";
import { AGENT_RESULT_STREAM_CODEC } from "./reply-response.js";

/** A history entry as shown: a conversation turn; an assistant turn may carry its card, read-only. */
export type HistoryEntry =
  | Extract<ConversationTurn, { role: "user" }>
  | (Extract<ConversationTurn, { role: "assistant" }> & { readonly card?: CardView });

export const MAX_HISTORY_ENTRIES = 256;

const REQUEST_ID = STRING(128);
const MAX_TEXT_BYTES = 16_384;
const USER_TEXT = STRING(MAX_TEXT_BYTES);

/** Stored turns may be longer than the wire allows: cut at a character boundary rather than fail the frame. */
const fitText = (text: string): string => {
  if (Buffer.byteLength(text, "utf8") <= MAX_TEXT_BYTES) return text;
  let cut = Buffer.from(text, "utf8").subarray(0, MAX_TEXT_BYTES).toString("utf8");
  while (Buffer.byteLength(cut, "utf8") > MAX_TEXT_BYTES) cut = cut.slice(0, -1);
  return cut;
};
const ROLE = StreamCodec.ordinal(["user", "assistant"] as const);

/** Drops the card data (from which buttons and speech could be rebuilt); the read-only view replaces it. */
const withoutPresentation = (result: AgentResult): AgentResult => {
  const { presentation: _dropped, ...rest } = result.encode();
  return AgentResult.decode(rest);
};

const ENTRY: StreamCodec<HistoryEntry> = StreamCodec.of(
  (entry, writer) => {
    ROLE.encode(entry.role, writer);
    REQUEST_ID.encode(entry.requestId, writer);
    F64.encode(entry.at, writer);
    if (entry.role === "user") USER_TEXT.encode(fitText(entry.text), writer);
    else {
      AGENT_RESULT_STREAM_CODEC.encode(withoutPresentation(entry.result), writer);
      READ_ONLY_VIEW_STREAM_CODEC.optional().encode(entry.card, writer);
    }
  },
  (reader) => {
    const role = ROLE.decode(reader);
    const requestId = REQUEST_ID.decode(reader);
    const at = F64.decode(reader);
    if (!Number.isFinite(at)) throw new StreamDecodeError("invalid history time");
    if (role === "user") return { role, requestId, at, text: USER_TEXT.decode(reader) };
    const result = AGENT_RESULT_STREAM_CODEC.decode(reader);
    const card = READ_ONLY_VIEW_STREAM_CODEC.optional().decode(reader);
    return card === undefined ? { role, requestId, at, result } : { role, requestId, at, result, card };
  },
);

/**
 * The player's conversation, read-only: restoring it never speaks and never offers buttons, so the wire form of
 * an assistant entry has no speech, no buttons and no card data to rebuild them from.
 */
export class HistoryResponse implements AgentResponse {
  static readonly TYPE = Identifier.parse("system:history");

  readonly type = HistoryResponse.TYPE;

  constructor(readonly entries: readonly HistoryEntry[]) {}

  static readonly STREAM_CODEC: StreamCodec<HistoryResponse> = ENTRY.list(MAX_HISTORY_ENTRIES).map(
    (entries) => new HistoryResponse(entries),
    (history) => history.entries.slice(-MAX_HISTORY_ENTRIES),
  );
}
