import { z } from "zod";
import { codec } from "../../util/codec.js";
import { ConfigInstance } from "../../util/config-instance.js";
import type { Logger } from "../../util/logger.js";
import { type ExecutionPolicy, readPolicyOverride } from "./execution-policy.js";

/** `config/system/system-agent.json`: policy overrides (full objects) and engine settings. */
export interface AgentSettings {
  /** Raw per-workflow overrides; each is validated when read, so one bad entry never hides the others. */
  readonly policies: Readonly<Record<string, unknown>>;
  /**
   * How long a structured request's result is replayed to the same request (seconds, default 30; 0 turns the
   * replay cache off). Absent: the default.
   */
  readonly replayWindowSeconds?: number | undefined;
}

/** The replay window when `system-agent.json` does not set one. */
export const DEFAULT_REPLAY_WINDOW_SECONDS = 30;

export const AGENT_SETTINGS_CODEC = codec<AgentSettings>(
  z
    .object({
      policies: z.record(z.string(), z.unknown()).default({}),
      replayWindowSeconds: z.number().int().min(0).max(86_400).optional(),
    })
    .passthrough(),
);

export class AgentConfig extends ConfigInstance<AgentSettings> {
  constructor(
    path: string | undefined,
    private readonly logger: Logger,
  ) {
    super({
      path,
      codec: AGENT_SETTINGS_CODEC,
      defaults: { policies: {} },
      logger,
      name: "system-agent.json",
    });
  }

  /** Overrides already read, per settings snapshot, so a bad entry is logged once per config version. */
  readonly #read = new WeakMap<
    AgentSettings,
    Map<string, { fallback: ExecutionPolicy; policy: ExecutionPolicy }>
  >();

  /** The replay window of structured requests in milliseconds (0: off), as the current settings say. */
  replayWindowMillis(): number {
    return (this.get().replayWindowSeconds ?? DEFAULT_REPLAY_WINDOW_SECONDS) * 1_000;
  }

  /** The policy for a workflow: the override if valid, else the module default. A snapshot: frozen. */
  policyFor(workflowId: string, moduleDefault: ExecutionPolicy): ExecutionPolicy {
    const settings = this.get();
    const raw = settings.policies[workflowId];
    if (raw === undefined) return moduleDefault;
    let read = this.#read.get(settings);
    if (read === undefined) {
      read = new Map();
      this.#read.set(settings, read);
    }
    const known = read.get(workflowId);
    if (known !== undefined && known.fallback === moduleDefault) return known.policy;
    const policy = readPolicyOverride(workflowId, raw, moduleDefault, this.logger);
    read.set(workflowId, { fallback: moduleDefault, policy });
    return policy;
  }
}
