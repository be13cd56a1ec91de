import { z } from "zod";
import { codec } from "../../util/codec.js";
import { ConfigInstance } from "../../util/config-instance.js";
import type { Logger } from "../../util/logger.js";
import { type ExecutionPolicy, readPolicyOverride } from "./execution-policy.js";

/** `config/system/system-agent.json`: policy overrides (full objects) and engine settings. */
export interface AgentSettings {
  /** Raw per-workflow overrides; each is validated when read, so one bad entry never hides the others. */
  readonly policies: Readonly<Record<string, unknown>>;
}

export const AGENT_SETTINGS_CODEC = codec<AgentSettings>(
  z.object({ policies: z.record(z.string(), z.unknown()).default({}) }).passthrough(),
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
