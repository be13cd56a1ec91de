import type { AgentJournal } from "../../src/agent/storage/agent-journal.js";
import type { RunClaim, RunClaims } from "../../src/agent/storage/run-claims.js";

/** The message of a write that failed because the (stand-in) database was unreachable. */
export const UNREACHABLE = "the database is unreachable";

/**
 * A stand-in for a network's run claims (PostgresRunClaims, tested against PostgreSQL in
 * test/storage/network-coordination.test.ts), in memory, for executor tests below the database: `holdElsewhere`
 * marks a run as another server's; a claim's journal counts the writes made through it; `lose` aborts a claim;
 * `unreachable` fails a journal write once.
 */
export class MemoryRunClaims implements RunClaims {
  readonly elsewhere = new Set<string>();
  readonly held = new Map<string, AbortController>();
  readonly released: string[] = [];
  /** Writes (step and event changes) made through a claim's journal, by run. */
  readonly writes = new Map<string, number>();
  /** Journal methods whose next call through a claim fails as if the database were unreachable (once each). */
  readonly unreachable: string[] = [];

  constructor(private readonly journal: AgentJournal) {}

  async claim(runId: string): Promise<RunClaim | undefined> {
    if (this.elsewhere.has(runId) || this.held.has(runId)) return undefined;
    const lost = new AbortController();
    this.held.set(runId, lost);
    const count = () => this.writes.set(runId, (this.writes.get(runId) ?? 0) + 1);
    const counted = new Set(["appendStep", "beginStep", "completeStep", "failStep", "updateEvent"]);
    const journal = new Proxy(this.journal, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        const method = (value as (...args: unknown[]) => unknown).bind(target);
        if (!counted.has(String(property))) return method;
        return (...args: unknown[]) => {
          count();
          const failing = this.unreachable.indexOf(String(property));
          if (failing < 0) return method(...args);
          this.unreachable.splice(failing, 1);
          return Promise.reject(new Error(UNREACHABLE));
        };
      },
    });
    return {
      journal,
      signal: lost.signal,
      release: async () => {
        this.held.delete(runId);
        this.released.push(runId);
      },
    };
  }

  /** Another server took the run over: the holder's signal aborts. */
  lose(runId: string): void {
    this.held.get(runId)?.abort(new Error("claim lost"));
  }
}
