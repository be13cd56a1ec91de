import type { Json } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { JSON_VALUE, STRING, StreamCodec, StreamDecodeError, UUID } from "../../util/stream-codec.js";
import type { CorrelatedRequest } from "./agent-request.js";

/** A structured call of one workflow: its module id and input JSON (decoded later by the module's own codec). */
export interface ModuleCall {
  readonly moduleId: Identifier;
  readonly input?: Json;
}

const MODULE_ID = STRING(256).map(
  (text) => {
    const id = Identifier.tryParse(text);
    if (id === undefined) throw new StreamDecodeError("invalid module id");
    return id;
  },
  (id: Identifier) => id.toString(),
);

/** Runs a module directly (a panel form, a shortcut), without routing; answered by a ReplyResponse. */
export class InvokeRequest implements CorrelatedRequest {
  static readonly TYPE = Identifier.parse("system:invoke");
  static readonly MAX_INPUT_BYTES = 65_536;

  readonly type = InvokeRequest.TYPE;

  constructor(
    readonly requestId: string,
    readonly call: ModuleCall,
  ) {}

  static readonly STREAM_CODEC: StreamCodec<InvokeRequest> = StreamCodec.struct({
    requestId: UUID,
    moduleId: MODULE_ID,
    input: JSON_VALUE(InvokeRequest.MAX_INPUT_BYTES).optional(),
  }).map(
    ({ requestId, moduleId, input }) =>
      new InvokeRequest(requestId, input === undefined ? { moduleId } : { moduleId, input }),
    (request) => ({
      requestId: request.requestId,
      moduleId: request.call.moduleId,
      input: request.call.input,
    }),
  );
}
