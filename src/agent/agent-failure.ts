import type { BudgetDimension, Failure } from "./failure.js";

/** The built-in failures; each has a `system.error.*` translation key. */
export class AgentFailure implements Failure {
  static readonly #byCode = new Map<string, AgentFailure>();

  static readonly BUSY = new AgentFailure("BUSY");
  static readonly CANCELLED = new AgentFailure("CANCELLED");
  static readonly PERMISSION_DENIED = new AgentFailure("PERMISSION_DENIED");
  static readonly MODULE_DISABLED = new AgentFailure("MODULE_DISABLED");
  static readonly MODULE_FAILED = new AgentFailure("MODULE_FAILED");
  static readonly INPUT_INVALID = new AgentFailure("INPUT_INVALID");
  static readonly INPUT_TOO_LARGE = new AgentFailure("INPUT_TOO_LARGE");
  static readonly TOOL_NOT_ALLOWED = new AgentFailure("TOOL_NOT_ALLOWED");
  static readonly BUDGET_EXHAUSTED = new AgentFailure("BUDGET_EXHAUSTED");
  static readonly TIMEOUT = new AgentFailure("TIMEOUT");
  static readonly QUOTA_EXCEEDED = new AgentFailure("QUOTA_EXCEEDED");
  static readonly MODEL_UNAVAILABLE = new AgentFailure("MODEL_UNAVAILABLE");
  static readonly MODEL_INVALID_OUTPUT = new AgentFailure("MODEL_INVALID_OUTPUT");
  static readonly STORAGE_FULL = new AgentFailure("STORAGE_FULL");
  /** A store the request needs (a network's shared database) cannot be reached right now. */
  static readonly STORAGE_UNAVAILABLE = new AgentFailure("STORAGE_UNAVAILABLE");
  static readonly EFFECT_UNKNOWN = new AgentFailure("EFFECT_UNKNOWN");
  /**
   * A write step could not reach the world now (the gateway's RCON is away or too slow) and changed nothing: the
   * effect is still owed. An event task that ends with it waits and is tried again later, never held for an admin.
   */
  static readonly EFFECT_DEFERRED = new AgentFailure("EFFECT_DEFERRED");
  static readonly REVOKED = new AgentFailure("REVOKED");
  static readonly UNKNOWN_COMMAND = new AgentFailure("UNKNOWN_COMMAND");
  static readonly NOT_FOUND = new AgentFailure("NOT_FOUND");
  static readonly AI_DISABLED = new AgentFailure("AI_DISABLED");
  static readonly ALREADY_DONE = new AgentFailure("ALREADY_DONE");
  /** Commerce: the balance does not cover the price (stored in order receipts, decoded with `fromCode`). */
  static readonly INSUFFICIENT_BALANCE = new AgentFailure("INSUFFICIENT_BALANCE");
  /** Commerce: the player's daily limit for this entry is reached. */
  static readonly LIMIT_REACHED = new AgentFailure("LIMIT_REACHED");
  /** Commerce: the server has no stock left. */
  static readonly OUT_OF_STOCK = new AgentFailure("OUT_OF_STOCK");
  /** Commerce: a quote expired, was for another player, or the catalog changed since. */
  static readonly QUOTE_EXPIRED = new AgentFailure("QUOTE_EXPIRED");

  readonly key: string;
  readonly args: readonly string[] = [];

  private constructor(readonly code: string) {
    this.key = `system.error.${code.toLowerCase()}`;
    AgentFailure.#byCode.set(code, this);
  }

  /** This reason with message arguments (same code and key). */
  with(...args: readonly (string | number)[]): Failure {
    return { code: this.code, key: this.key, args: args.map(String) };
  }

  /**
   * MODEL_UNAVAILABLE because the server has no model configured at all: the same reason to every check (nothing
   * to wait for, no retry), told as it is, so nobody waits on "try again later" for a model that does not exist.
   */
  static modelNotConfigured(): Failure {
    return { code: AgentFailure.MODEL_UNAVAILABLE.code, key: "system.error.model_not_configured", args: [] };
  }

  /** BUDGET_EXHAUSTED naming the dimension that ran out. */
  static budgetExhausted(dimension: BudgetDimension): Failure {
    return AgentFailure.BUDGET_EXHAUSTED.with(dimension);
  }

  /** Maps a persisted code back; unknown codes become MODULE_FAILED. */
  static fromCode(code: string): AgentFailure {
    return AgentFailure.#byCode.get(code) ?? AgentFailure.MODULE_FAILED;
  }

  static values(): AgentFailure[] {
    return [...AgentFailure.#byCode.values()];
  }

  toString(): string {
    return this.code;
  }
}
