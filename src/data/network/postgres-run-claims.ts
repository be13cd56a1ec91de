import type { RunClaim, RunClaims } from "../../agent/storage/run-claims.js";
import { type Logger, silentLogger } from "../../util/logger.js";
import type { PostgresAgentJournal } from "./postgres-agent-journal.js";
import { type Lease, LeaseLostError, type LeaseToken, type PostgresLeases } from "./postgres-leases.js";

/** A claim with its lease, for writes outside the journal that the claim protects (`fencedQuery`). */
export interface PostgresRunClaim extends RunClaim {
  readonly lease: LeaseToken;
}

export interface PostgresRunClaimsOptions {
  readonly leases: PostgresLeases;
  readonly journal: PostgresAgentJournal;
  /** How long a claim lasts without renewal (default 30 s): how long a dead server's runs wait. */
  readonly ttlMillis?: number;
  /** How often a held claim is renewed (default a third of the ttl). */
  readonly renewMillis?: number;
  readonly logger?: Logger;
}

/**
 * Run claims on PostgreSQL leases (`run:<runId>`): a claim reads the run's steps again (another server may have
 * done some), renews itself in the background, and hands out the journal fenced by its epoch, so a server
 * that stalled past its lease can no longer write once another took the run over.
 */
export class PostgresRunClaims implements RunClaims {
  readonly #logger: Logger;
  /** Claims this server ended while their release could not be written (the database was unreachable). */
  readonly #unreleased = new Map<string, Lease>();

  constructor(private readonly options: PostgresRunClaimsOptions) {
    this.#logger = options.logger ?? silentLogger;
  }

  /** A run left to another server is tried again after a renewal period: a dead holder's claim expires by then. */
  get retryMillis(): number {
    return this.options.renewMillis ?? this.#ttl / 3;
  }

  get #ttl(): number {
    return this.options.ttlMillis ?? 30_000;
  }

  async claim(runId: string, events?: readonly string[]): Promise<PostgresRunClaim | undefined> {
    const { leases, journal } = this.options;
    const ttl = this.#ttl;
    // this server's own claim whose release failed is ended first (fenced by its epoch), not waited out
    const unreleased = this.#unreleased.get(runId);
    if (unreleased !== undefined) {
      await leases.release(unreleased);
      this.#unreleased.delete(runId);
    }
    const lease = await leases.acquire(`run:${runId}`, ttl);
    if (lease === undefined) return undefined;
    await journal.reloadSteps(`${runId}/`);
    if (events !== undefined && events.length > 0) await journal.reloadEvents(events);
    const lost = new AbortController();
    // the renewal in flight: a release waits for it, or it could extend the lease after the release
    let renewing: Promise<unknown> = Promise.resolve();
    const renewal = setInterval(
      () => {
        renewing = leases.renew(lease, ttl).then(
          (renewed) => {
            if (renewed !== undefined || lost.signal.aborted) return;
            clearInterval(renewal);
            this.#logger.warn(`run ${runId}: its claim was taken over by another server; stopping here`);
            lost.abort(new LeaseLostError(lease, "run"));
          },
          // the database is unreachable for now: try again at the next tick, the lease may still hold
          () => undefined,
        );
      },
      this.options.renewMillis ?? ttl / 3,
    );
    renewal.unref();
    return {
      lease: { key: lease.key, epoch: lease.epoch },
      journal: journal.fenced(lease),
      signal: lost.signal,
      release: async () => {
        clearInterval(renewal);
        await renewing;
        if (lost.signal.aborted) return;
        await leases.release(lease).catch((error: unknown) => {
          this.#unreleased.set(runId, lease);
          throw error;
        });
      },
    };
  }
}
