import type { Json } from "../../util/codec.js";
import type { TraceParent } from "../telemetry/telemetry.js";

/** One model request: one system text plus one user JSON object. Observations go inside the user JSON. */
export interface ModelRequest {
  readonly system: string;
  readonly user: { readonly [key: string]: Json };
  readonly maxOutputTokens: number;
  readonly timeoutMillis: number;
  readonly signal: AbortSignal;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** The reply text (private reasoning already removed) and what it cost. */
export interface ModelResponse {
  readonly text: string;
  readonly usage: TokenUsage;
}

/** A model protocol implementation (OpenAI-compatible chat completions, a scripted one in tests). */
export interface ModelClient {
  complete(request: ModelRequest): Promise<ModelResponse>;
}

/** Who a model call is for, so the gateway can apply quota, concurrency and usage records. */
export interface ModelCallMeta {
  /** The request the call is made for. */
  readonly requestId?: string;
  /** The span the call runs inside (a ReAct round, the routing), when not the request itself. */
  readonly trace?: TraceParent;
  readonly playerId: string;
  readonly workflow: string;
  /** Epoch millis after which the call may not start or continue. */
  readonly deadline: number;
}

/** The engine's only way to a model (implemented by ModelGateway). */
export interface ModelPort {
  call(request: ModelRequest, meta: ModelCallMeta): Promise<ModelResponse>;
}
