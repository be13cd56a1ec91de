import type { Pool } from "pg";
import {
  type DailyUsage,
  localDay,
  type QuotaLimit,
  type QuotaRequest,
  selectUsage,
  type UsageEntry,
  type UsageQuery,
  type UsageRecord,
  type UsageStore,
  usageKey,
} from "../../agent/storage/usage-store.js";
import type { Logger } from "../../util/logger.js";

/** One guarded upsert: the row lock serializes reservations of a player's day across every server. */
const RESERVE = `
  INSERT INTO system_model_quota AS q (player_id, day, calls, tokens) VALUES ($1, $2, 1, 0)
  ON CONFLICT (player_id, day) DO UPDATE SET calls = q.calls + 1
  WHERE ($3::int = 0 OR q.calls < $3::int) AND ($4::bigint = 0 OR q.tokens < $4::bigint)
  RETURNING calls`;

const RECORD = `
  WITH quota AS (
    INSERT INTO system_model_quota AS q (player_id, day, calls, tokens) VALUES ($1, $2, 0, $5::bigint + $6::bigint)
    ON CONFLICT (player_id, day) DO UPDATE SET tokens = q.tokens + EXCLUDED.tokens
    RETURNING calls, tokens
  ), usage AS (
    INSERT INTO system_model_usage AS u
      (player_id, day, workflow, calls, failures, input_tokens, output_tokens, latency_millis)
    VALUES ($1, $2, $3, 1, $4, $5, $6, $7)
    ON CONFLICT (player_id, day, workflow) DO UPDATE SET
      calls = u.calls + 1, failures = u.failures + EXCLUDED.failures,
      input_tokens = u.input_tokens + EXCLUDED.input_tokens,
      output_tokens = u.output_tokens + EXCLUDED.output_tokens,
      latency_millis = u.latency_millis + EXCLUDED.latency_millis
    RETURNING *
  )
  SELECT usage.*, quota.calls AS quota_calls, quota.tokens AS quota_tokens FROM usage, quota`;

interface UsageRow {
  readonly player_id: string;
  readonly day: string;
  readonly workflow: string;
  readonly calls: number;
  readonly failures: number;
  readonly input_tokens: string;
  readonly output_tokens: string;
  readonly latency_millis: string;
}

const recordOf = (row: UsageRow): UsageRecord => ({
  playerId: row.player_id,
  day: row.day,
  workflow: row.workflow,
  calls: row.calls,
  failures: row.failures,
  inputTokens: Number(row.input_tokens),
  outputTokens: Number(row.output_tokens),
  latencyMillis: Number(row.latency_millis),
});

export interface PostgresUsageStoreOptions {
  readonly pool: Pool;
  readonly logger: Logger;
  /** Days of records kept (older days are deleted at open). */
  readonly retainDays?: number;
  /** How often the memory copy is re-read for what other servers recorded. */
  readonly refreshMillis?: number;
  readonly now?: () => number;
}

/**
 * Model usage and daily quotas shared by a network (tables of migration 002). A reservation is one guarded
 * upsert, so exactly `limit` calls pass across every server; a refund gives one back. Reads are served from a
 * memory copy refreshed after each own write and every `refreshMillis` (what `/system usage` shows may lag other
 * servers by that much; the quota check itself never does).
 */
export class PostgresUsageStore implements UsageStore {
  readonly #records = new Map<string, UsageRecord>();
  readonly #daily = new Map<string, DailyUsage>();
  readonly #timer: NodeJS.Timeout;

  private constructor(private readonly options: PostgresUsageStoreOptions) {
    this.#timer = setInterval(() => {
      this.refresh().catch((error: unknown) =>
        options.logger.warn(`model usage not re-read: ${String(error)}`),
      );
    }, options.refreshMillis ?? 10_000);
    this.#timer.unref();
  }

  static async open(options: PostgresUsageStoreOptions): Promise<PostgresUsageStore> {
    const store = new PostgresUsageStore(options);
    const oldest = store.#oldestDay();
    await options.pool.query("DELETE FROM system_model_usage WHERE day < $1", [oldest]);
    await options.pool.query("DELETE FROM system_model_quota WHERE day < $1", [oldest]);
    await store.refresh();
    return store;
  }

  async reserve(request: QuotaRequest): Promise<QuotaLimit | undefined> {
    const { rows } = await this.options.pool.query<{ calls: number }>(RESERVE, [
      request.playerId,
      request.day,
      Math.max(0, request.calls),
      Math.max(0, request.tokens),
    ]);
    if (rows.length > 0) return undefined;
    const used = await this.#readDaily(request.playerId, request.day);
    return request.calls > 0 && used.calls >= request.calls ? "calls" : "tokens";
  }

  async refund(playerId: string, day: string): Promise<void> {
    await this.options.pool.query(
      "UPDATE system_model_quota SET calls = calls - 1 WHERE player_id = $1 AND day = $2 AND calls > 0",
      [playerId, day],
    );
    await this.#readDaily(playerId, day);
  }

  async add(entry: UsageEntry): Promise<void> {
    const { rows } = await this.options.pool.query<UsageRow & { quota_calls: number; quota_tokens: string }>(
      RECORD,
      [
        entry.playerId,
        entry.day,
        entry.workflow,
        entry.failed ? 1 : 0,
        Math.max(0, entry.inputTokens),
        Math.max(0, entry.outputTokens),
        Math.max(0, entry.latencyMillis),
      ],
    );
    const row = rows[0];
    if (row === undefined) return;
    this.#records.set(usageKey(row.player_id, row.day, row.workflow), recordOf(row));
    this.#daily.set(JSON.stringify([row.player_id, row.day]), {
      calls: row.quota_calls,
      tokens: Number(row.quota_tokens),
    });
  }

  /** Calls reserved or made and tokens used, as last read (own writes at once, other servers' within a refresh). */
  daily(playerId: string, day: string): DailyUsage {
    return { ...(this.#daily.get(JSON.stringify([playerId, day])) ?? { calls: 0, tokens: 0 }) };
  }

  query(query?: UsageQuery): UsageRecord[] {
    return selectUsage(this.#records.values(), query);
  }

  /** Re-reads the records and daily counters of the kept days. */
  async refresh(): Promise<void> {
    const oldest = this.#oldestDay();
    const usage = await this.options.pool.query<UsageRow>(
      "SELECT * FROM system_model_usage WHERE day >= $1",
      [oldest],
    );
    const quota = await this.options.pool.query<{
      player_id: string;
      day: string;
      calls: number;
      tokens: string;
    }>("SELECT player_id, day, calls, tokens FROM system_model_quota WHERE day >= $1", [oldest]);
    this.#records.clear();
    for (const row of usage.rows)
      this.#records.set(usageKey(row.player_id, row.day, row.workflow), recordOf(row));
    this.#daily.clear();
    for (const row of quota.rows)
      this.#daily.set(JSON.stringify([row.player_id, row.day]), {
        calls: row.calls,
        tokens: Number(row.tokens),
      });
  }

  /** Stops re-reading (the pool is closed by its owner). */
  close(): void {
    clearInterval(this.#timer);
  }

  async #readDaily(playerId: string, day: string): Promise<DailyUsage> {
    const { rows } = await this.options.pool.query<{ calls: number; tokens: string }>(
      "SELECT calls, tokens FROM system_model_quota WHERE player_id = $1 AND day = $2",
      [playerId, day],
    );
    const used = { calls: rows[0]?.calls ?? 0, tokens: Number(rows[0]?.tokens ?? 0) };
    this.#daily.set(JSON.stringify([playerId, day]), used);
    return used;
  }

  #oldestDay(): string {
    const retainDays = this.options.retainDays ?? 62;
    return localDay((this.options.now ?? Date.now)() - (retainDays - 1) * 86_400_000);
  }
}
