import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";
import type { ModelClient, ModelRequest, ModelResponse, TokenUsage } from "./model-client.js";
import { stripReasoning } from "./reasoning-filter.js";

/** Where and how to reach one OpenAI-compatible chat-completions endpoint. */
export interface OpenAiEndpoint {
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1` (Ollama). */
  readonly baseUrl: string;
  /** Sent as a Bearer token; local servers usually accept any value. */
  readonly apiKey: string;
  readonly model: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Rough bytes per token, used only when a server omits `usage` (some local servers do). */
const BYTES_PER_TOKEN = 4;

/**
 * ModelClient over the official `openai` SDK for any OpenAI-compatible server (OpenAI, DeepSeek, Qwen, Ollama,
 * LM Studio, vLLM, llama.cpp). One non-streaming chat completion per call, never retried (a charged request
 * must not repeat), no vendor tool calls: the model answers with JSON text. Private reasoning is dropped.
 */
export class OpenAiModelClient implements ModelClient {
  readonly #sdk: OpenAI;
  readonly #model: string;

  constructor(endpoint: OpenAiEndpoint) {
    this.#model = endpoint.model;
    this.#sdk = new OpenAI({
      baseURL: endpoint.baseUrl,
      apiKey: endpoint.apiKey === "" ? "none" : endpoint.apiKey,
      maxRetries: 0,
      // Never pick up OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment: the endpoint may not be OpenAI.
      organization: null,
      project: null,
      defaultHeaders: { ...(endpoint.headers ?? {}) },
    });
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    if (request.signal.aborted) throw new AgentException(AgentFailure.CANCELLED);
    if (request.timeoutMillis <= 0) throw new AgentException(AgentFailure.TIMEOUT);
    const userText = JSON.stringify(request.user);
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.#sdk.chat.completions.create(
        {
          model: this.#model,
          messages: [
            { role: "system", content: request.system },
            { role: "user", content: userText },
          ],
          max_tokens: request.maxOutputTokens,
          stream: false,
        },
        { signal: request.signal, timeout: request.timeoutMillis, maxRetries: 0 },
      );
    } catch (error) {
      throw mapError(error, request.signal);
    }
    const message = completion.choices?.[0]?.message;
    const raw = typeof message?.content === "string" ? message.content : "";
    const text = stripReasoning(raw);
    if (text === "") throw new AgentException(AgentFailure.MODEL_INVALID_OUTPUT.with("empty reply"));
    return { text, usage: usageOf(completion, request.system, userText, raw, message) };
  }
}

/** Maps SDK errors onto the engine's failures; the SDK error is kept as the cause for the log. */
const mapError = (error: unknown, signal: AbortSignal): AgentException => {
  if (error instanceof AgentException) return error;
  if (error instanceof APIConnectionTimeoutError)
    return new AgentException(AgentFailure.TIMEOUT, { cause: error });
  if (error instanceof APIUserAbortError || signal.aborted)
    return new AgentException(AgentFailure.CANCELLED, { cause: error });
  if (error instanceof APIError)
    return new AgentException(
      AgentFailure.MODEL_UNAVAILABLE.with(String(error.status ?? "connection"), causeText(error)),
      { cause: error },
    );
  // A non-JSON or malformed 200 body surfaces as a parse error from the SDK.
  if (error instanceof SyntaxError)
    return new AgentException(AgentFailure.MODEL_INVALID_OUTPUT.with("malformed response"), { cause: error });
  return new AgentException(AgentFailure.MODEL_UNAVAILABLE.with("connection", causeText(error)), {
    cause: error,
  });
};

/** The longest cause an admin reads in the log line of a failed model call. */
const CAUSE_LIMIT = 160;

/**
 * Why a model call failed, in one short line for the admin's log (never shown to players): the messages down the
 * cause chain with the system error code (`Connection error. ← fetch failed ← ECONNREFUSED 127.0.0.1:9`).
 */
export const causeText = (error: unknown): string => {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    const { message, code, address, port } = current as {
      message?: unknown;
      code?: unknown;
      address?: unknown;
      port?: unknown;
    };
    if (typeof code === "string" && typeof address === "string")
      parts.push(`${code} ${address}${typeof port === "number" ? `:${port}` : ""}`);
    else if (typeof message === "string" && message !== "") parts.push(message);
    current = (current as { cause?: unknown }).cause;
  }
  const text = parts.join(" ← ").replace(/\s+/g, " ");
  return text.length > CAUSE_LIMIT ? `${text.slice(0, CAUSE_LIMIT - 1)}…` : text;
};

/**
 * The server's `usage` when present; otherwise an estimate of ceil(UTF-8 bytes / 4) for the sent messages and
 * for the raw reply including its reasoning (which the provider also bills), so quotas still advance.
 */
const usageOf = (
  completion: OpenAI.Chat.Completions.ChatCompletion,
  system: string,
  userText: string,
  raw: string,
  message: unknown,
): TokenUsage => {
  const usage = completion.usage;
  if (usage !== undefined && usage !== null && Number.isFinite(usage.prompt_tokens))
    return {
      inputTokens: Math.max(0, usage.prompt_tokens),
      outputTokens: Math.max(0, Number.isFinite(usage.completion_tokens) ? usage.completion_tokens : 0),
    };
  const reasoning = (message as { reasoning_content?: unknown } | undefined)?.reasoning_content;
  const reasoningBytes = typeof reasoning === "string" ? Buffer.byteLength(reasoning, "utf8") : 0;
  return {
    inputTokens: estimate(Buffer.byteLength(system, "utf8") + Buffer.byteLength(userText, "utf8")),
    outputTokens: estimate(Buffer.byteLength(raw, "utf8") + reasoningBytes),
  };
};

const estimate = (bytes: number): number => Math.ceil(bytes / BYTES_PER_TOKEN);
