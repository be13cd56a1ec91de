import { z } from "zod";
import { type Codec, codec, type Json } from "../util/codec.js";
import { invalid, type Validation, valid } from "../util/validation.js";
import type { Failure } from "./failure.js";
import { TEXT_SCHEMA, type Text, translatable } from "./text.js";

/** The outcome status; encoded as stable lowercase strings. Partial success counts as failure. */
export const Status = {
  SUCCEEDED: "succeeded",
  FAILED: "failed",
  PARTIALLY_SUCCEEDED: "partially_succeeded",
} as const;
export type Status = (typeof Status)[keyof typeof Status];

/** A card attached to a result: the registered card type and its encoded data. */
export interface Presentation {
  readonly type: string;
  readonly data: Json;
  /**
   * The typed card the data was encoded from, when the result was made in this process: the presenter builds
   * from it directly instead of decoding `data` again. Never persisted or sent (see `encode`).
   */
  readonly card?: unknown;
}

interface ResultState {
  readonly status: Status;
  readonly message: Text | undefined;
  readonly failure: Failure | undefined;
  readonly presentation: Presentation | undefined;
  readonly silent: boolean;
  /** Set on a stored answer given again by the replay cache: how many seconds ago it was first given. */
  readonly replayedSeconds?: number;
}

const JSON_SCHEMA: z.ZodType<Json> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(JSON_SCHEMA),
    z.record(z.string(), JSON_SCHEMA),
  ]),
) as z.ZodType<Json>;

const ENCODED = z.object({
  status: z.enum(["succeeded", "failed", "partially_succeeded"]),
  message: TEXT_SCHEMA.optional(),
  failure: z
    .object({ code: z.string().max(128), key: z.string().max(256), args: z.array(z.string()).max(32) })
    .optional(),
  presentation: z.object({ type: z.string().max(256), data: JSON_SCHEMA }).optional(),
  silent: z.boolean().optional(),
  replayedSeconds: z.number().int().min(0).optional(),
});
type Encoded = z.infer<typeof ENCODED>;

/** The result of one workflow run. Owns its state; every "with" method returns a copy. */
export class AgentResult {
  private constructor(private readonly state: ResultState) {}

  static success(message?: Text, presentation?: Presentation): AgentResult {
    return new AgentResult({
      status: Status.SUCCEEDED,
      message,
      failure: undefined,
      presentation,
      silent: false,
    });
  }

  /** A failure keeping the failure's key and arguments as the message. */
  static error(failure: Failure): AgentResult {
    return new AgentResult({
      status: Status.FAILED,
      message: translatable(failure.key, ...failure.args),
      failure: { code: failure.code, key: failure.key, args: [...failure.args] },
      presentation: undefined,
      silent: false,
    });
  }

  /** A successful result that shows nothing (the work is its own feedback). */
  static silent(): AgentResult {
    return new AgentResult({
      status: Status.SUCCEEDED,
      message: undefined,
      failure: undefined,
      presentation: undefined,
      silent: true,
    });
  }

  get status(): Status {
    return this.state.status;
  }
  get message(): Text | undefined {
    return this.state.message;
  }
  get failure(): Failure | undefined {
    return this.state.failure;
  }
  get presentation(): Presentation | undefined {
    return this.state.presentation;
  }
  get silent(): boolean {
    return this.state.silent;
  }
  /** Seconds since this answer was first given, when it is a replay of a stored answer (undefined otherwise). */
  get replayedSeconds(): number | undefined {
    return this.state.replayedSeconds;
  }

  isSuccess(): boolean {
    return this.state.status === Status.SUCCEEDED;
  }

  isFailure(): boolean {
    return this.state.status !== Status.SUCCEEDED;
  }

  isPartial(): boolean {
    return this.state.status === Status.PARTIALLY_SUCCEEDED;
  }

  /** Marks partial success (still a failure), optionally with the reason that stopped the rest. */
  partial(reason?: Failure): AgentResult {
    return new AgentResult({
      ...this.state,
      status: Status.PARTIALLY_SUCCEEDED,
      failure: reason ?? this.state.failure,
    });
  }

  /** A copy shown with a card. */
  withPresentation(presentation: Presentation): AgentResult {
    return new AgentResult({ ...this.state, presentation, silent: false });
  }

  /**
   * The same answer given again from the replay cache, first given `seconds` ago: every surface says it is a
   * repeat (nothing ran, nothing was given or paid again).
   */
  replayed(seconds: number): AgentResult {
    return new AgentResult({ ...this.state, replayedSeconds: Math.max(0, Math.floor(seconds)) });
  }

  /** A copy with another message. */
  withMessage(message: Text): AgentResult {
    return new AgentResult({ ...this.state, message });
  }

  encode(): Encoded {
    const encoded: Encoded = { status: this.state.status };
    if (this.state.message !== undefined) encoded.message = this.state.message as Encoded["message"];
    if (this.state.failure !== undefined)
      encoded.failure = {
        code: this.state.failure.code,
        key: this.state.failure.key,
        args: [...this.state.failure.args],
      };
    const presentation = this.state.presentation;
    if (presentation !== undefined)
      encoded.presentation = { type: presentation.type, data: presentation.data };
    if (this.state.silent) encoded.silent = true;
    if (this.state.replayedSeconds !== undefined) encoded.replayedSeconds = this.state.replayedSeconds;
    return encoded;
  }

  static decode(encoded: Encoded): AgentResult {
    return new AgentResult({
      status: encoded.status,
      message: encoded.message,
      failure: encoded.failure,
      presentation: encoded.presentation,
      silent: encoded.silent ?? false,
      ...(encoded.replayedSeconds === undefined ? {} : { replayedSeconds: encoded.replayedSeconds }),
    });
  }

  toJSON(): Encoded {
    return this.encode();
  }

  /** For persistence and the network; never carries Failure implementation classes. */
  static readonly CODEC: Codec<AgentResult> = {
    schema: ENCODED.transform((encoded) => AgentResult.decode(encoded)) as unknown as z.ZodType<AgentResult>,
    decode(data: unknown): Validation<AgentResult> {
      const parsed = ENCODED_CODEC.decode(data);
      return parsed.success ? valid(AgentResult.decode(parsed.value)) : invalid(parsed.error);
    },
    encode(value: AgentResult): Json {
      return value.encode() as Json;
    },
    jsonSchema: () => ENCODED_CODEC.jsonSchema(),
  };
}

const ENCODED_CODEC = codec(ENCODED);
