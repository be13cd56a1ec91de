import { Identifier } from "../../util/identifier.js";
import { StreamCodec } from "../../util/stream-codec.js";
import type { AgentRequest } from "./agent-request.js";

/**
 * Client controls without arguments, an enum encoded by ordinal. The ordinal order is wire format: only append.
 * STATE asks for a StateResponse, HISTORY for a HistoryResponse; CANCEL stops the running request; CLEAR clears
 * the conversation; OPEN_* ask the client to switch views (answered by an OpenResponse).
 */
export class ControlRequest implements AgentRequest {
  static readonly TYPE = Identifier.parse("system:control");
  static readonly #values: ControlRequest[] = [];

  static readonly STATE = new ControlRequest("STATE");
  static readonly HISTORY = new ControlRequest("HISTORY");
  static readonly CANCEL = new ControlRequest("CANCEL");
  static readonly CLEAR = new ControlRequest("CLEAR");
  static readonly OPEN_CURRENT = new ControlRequest("OPEN_CURRENT");
  static readonly OPEN_SIMPLE = new ControlRequest("OPEN_SIMPLE");
  static readonly OPEN_FULL = new ControlRequest("OPEN_FULL");

  readonly type = ControlRequest.TYPE;
  readonly ordinal: number;

  private constructor(readonly action: string) {
    this.ordinal = ControlRequest.#values.length;
    ControlRequest.#values.push(this);
  }

  static values(): readonly ControlRequest[] {
    return [...ControlRequest.#values];
  }

  static valueOf(action: string): ControlRequest | undefined {
    return ControlRequest.#values.find((value) => value.action === action);
  }

  toString(): string {
    return this.action;
  }

  static readonly STREAM_CODEC: StreamCodec<ControlRequest> = StreamCodec.ordinal(ControlRequest.#values);
}
