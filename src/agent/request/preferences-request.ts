import { Identifier } from "../../util/identifier.js";
import { BOOL, StreamCodec } from "../../util/stream-codec.js";
import type { ConversationPreferences } from "../storage/conversation-memory.js";
import type { AgentRequest } from "./agent-request.js";

/** A player's switches (keep conversation history, allow external services) as two booleans. */
export const PREFERENCES_STREAM_CODEC: StreamCodec<ConversationPreferences> = StreamCodec.struct({
  history: BOOL,
  external: BOOL,
});

/** Sets the player's preferences; the server answers with a StateResponse carrying the stored values. */
export class PreferencesRequest implements AgentRequest, ConversationPreferences {
  static readonly TYPE = Identifier.parse("system:preferences");

  readonly type = PreferencesRequest.TYPE;

  constructor(
    readonly history: boolean,
    readonly external: boolean,
  ) {}

  static readonly STREAM_CODEC: StreamCodec<PreferencesRequest> = PREFERENCES_STREAM_CODEC.map(
    ({ history, external }) => new PreferencesRequest(history, external),
    (request) => ({ history: request.history, external: request.external }),
  );
}
