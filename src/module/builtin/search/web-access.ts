import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { ContextType } from "../../../agent/module/context-type.js";
import { SearchSession } from "./search-session.js";

/** What the opener of a gate asserts once and what is re-checked live on every network call. */
export interface WebGateChecks {
  /** The request's own permission (`/search`, or the router very sure); fixed when the gate opens. */
  readonly allowWeb: boolean;
  /** Whether the search feature is (still) enabled for this player. */
  readonly featureEnabled: () => boolean;
  /** Whether the player (still) allows external services. */
  readonly external: () => boolean | Promise<boolean>;
}

/** The web gate of one request, with its search session. Closed gates refuse everything. */
export class WebGate {
  readonly session = new SearchSession();
  #open = true;

  constructor(
    readonly requestId: string,
    readonly playerId: string,
    private readonly checks: WebGateChecks,
  ) {}

  get isOpen(): boolean {
    return this.#open;
  }

  /** Throws the reason the web may not be used now (authorization failures, which end a loop at once). */
  async check(playerId: string): Promise<void> {
    if (!this.#open || playerId !== this.playerId || !this.checks.allowWeb)
      throw new AgentException(AgentFailure.PERMISSION_DENIED.with("web"));
    if (!this.checks.featureEnabled()) throw new AgentException(AgentFailure.MODULE_DISABLED.with("web"));
    if (!(await this.checks.external()))
      throw new AgentException(AgentFailure.PERMISSION_DENIED.with("external"));
  }

  close(): void {
    this.#open = false;
  }
}

/**
 * Per-request web gates. Only the question workflow opens one, after its own checks (local knowledge empty,
 * allowWeb, search enabled, external allowed); the web tools find it by request id on every call, so a call
 * from any other request, event or workflow finds no gate and is refused.
 */
export class WebAccess {
  readonly #gates = new Map<string, WebGate>();

  open(requestId: string, playerId: string, checks: WebGateChecks): WebGate {
    this.#gates.get(requestId)?.close();
    const gate = new WebGate(requestId, playerId, checks);
    this.#gates.set(requestId, gate);
    return gate;
  }

  /** The open gate of a request after its live checks; throws PERMISSION_DENIED when there is none. */
  async require(requestId: string | undefined, playerId: string): Promise<WebGate> {
    const gate = requestId === undefined ? undefined : this.#gates.get(requestId);
    if (gate === undefined) throw new AgentException(AgentFailure.PERMISSION_DENIED.with("web"));
    await gate.check(playerId);
    return gate;
  }

  close(gate: WebGate): void {
    gate.close();
    if (this.#gates.get(gate.requestId) === gate) this.#gates.delete(gate.requestId);
  }

  /** Gates currently open (for leak checks). */
  get size(): number {
    return this.#gates.size;
  }
}

/** The shared WebAccess; the server assembly provides one instance to the search and question features. */
export const WEB_ACCESS = ContextType.of<WebAccess>("system:web_access");
