import type pg from "pg";
import { toEntry, type UpsertOutcome } from "../knowledge-database.js";
import type { KnowledgeDraft, KnowledgeEntry, KnowledgeHit } from "../knowledge-entry.js";
import type { KnowledgeRow } from "../knowledge-schema.js";
import type { KeyedDraft, KnowledgeQuery, KnowledgeStore } from "../knowledge-store.js";
import { snippetOf } from "../knowledge-terms.js";
import { KNOWLEDGE_TABLE, KNOWLEDGE_TOKENS, KNOWLEDGE_TOTALS } from "./knowledge-migrations.js";
import { haystackOf, KnowledgeTokenizer, trigramLength } from "./knowledge-tokens.js";
import { PostgresKnowledgeSearch, ROW_COLUMNS } from "./postgres-knowledge-search.js";

type Client = pg.PoolClient;

/** What a write changed, for invalidation elsewhere (another server of the network). */
export type KnowledgeChange = "added" | "updated" | "removed";

/**
 * The knowledge base of a network in PostgreSQL (tables of migration 100-knowledge). Every write is one
 * transaction that keeps the entry, its tokens and the corpus totals in step. `onChange` hears each committed
 * change (the network's invalidation publishes it); the tokenizer is SQLite's, so both backends index alike.
 */
export class PostgresKnowledgeStore implements KnowledgeStore {
  readonly description = "postgres";
  readonly #tokenizer = new KnowledgeTokenizer();
  readonly #search: PostgresKnowledgeSearch;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: {
      readonly now?: () => number;
      readonly onChange?: (change: KnowledgeChange) => void;
    } = {},
  ) {
    this.#search = new PostgresKnowledgeSearch(pool, this.#tokenizer);
  }

  add(draft: KnowledgeDraft): Promise<KnowledgeEntry> {
    return this.#transaction("added", (client) => this.#insert(client, draft));
  }

  async upsert(draft: KeyedDraft): Promise<UpsertOutcome> {
    const [outcome] = await this.upsertAll([draft]);
    return outcome as UpsertOutcome;
  }

  async upsertAll(drafts: readonly KeyedDraft[]): Promise<UpsertOutcome[]> {
    let outcomes: UpsertOutcome[] = [];
    await this.#transaction(undefined, async (client) => {
      outcomes = [];
      for (const draft of drafts) outcomes.push(await this.#upsert(client, draft));
    });
    if (outcomes.some((outcome) => outcome !== "skipped")) this.options.onChange?.("updated");
    return outcomes;
  }

  async get(id: number): Promise<KnowledgeEntry | undefined> {
    const { rows } = await this.pool.query<KnowledgeRow>(
      `SELECT ${ROW_COLUMNS} FROM ${KNOWLEDGE_TABLE} k WHERE k.id = $1`,
      [id],
    );
    return rows[0] === undefined ? undefined : toEntry(rows[0]);
  }

  async remove(id: number, owner?: string): Promise<boolean> {
    if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return false;
    let removed = false;
    await this.#transaction(undefined, async (client) => {
      const { rows } = await client.query<{ trigram_length: number }>(
        `DELETE FROM ${KNOWLEDGE_TABLE} WHERE id = $1 ${owner === undefined ? "" : "AND owner = $2"}
          RETURNING trigram_length`,
        owner === undefined ? [id] : [id, owner],
      );
      const row = rows[0];
      if (row === undefined) return;
      // the embedded short-term index is contentless: a delete leaves its totals as they were
      await client.query(
        `UPDATE ${KNOWLEDGE_TOTALS} SET trigram_rows = trigram_rows - 1, trigram_tokens = trigram_tokens - $1`,
        [row.trigram_length],
      );
      removed = true;
    });
    if (removed) this.options.onChange?.("removed");
    return removed;
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${KNOWLEDGE_TABLE}`,
    );
    return rows[0]?.n ?? 0;
  }

  async list(options: { readonly after: number; readonly limit: number }): Promise<KnowledgeEntry[]> {
    const { rows } = await this.pool.query<KnowledgeRow>(
      `SELECT ${ROW_COLUMNS} FROM ${KNOWLEDGE_TABLE} k WHERE k.id > $1 ORDER BY k.id LIMIT $2`,
      [options.after, options.limit],
    );
    return rows.map(toEntry);
  }

  async search(query: KnowledgeQuery): Promise<KnowledgeHit[]> {
    const { terms, rows } = await this.#search.run(query.query, query.playerId, query.limit);
    return rows.map((row) => {
      const entry = toEntry(row);
      return { entry, snippet: snippetOf(entry.body, terms) };
    });
  }

  /** The store does not own the pool (the storage opener does); it frees its tokenizer. */
  async close(): Promise<void> {
    this.#tokenizer.close();
  }

  async #insert(client: Client, draft: KnowledgeDraft): Promise<KnowledgeEntry> {
    const tags = JSON.stringify(draft.tags ?? []);
    const fields = { title: draft.title, body: draft.body, tags };
    const tokens = this.#tokenizer.entry(fields);
    const trigrams = trigramLength(fields);
    const { rows } = await client.query<KnowledgeRow>(
      `INSERT INTO ${KNOWLEDGE_TABLE} AS k (owner, title, body, source, tags, ref, created, haystack, gram_length, trigram_length)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${ROW_COLUMNS}`,
      [
        draft.owner ?? null,
        draft.title,
        draft.body,
        draft.source,
        tags,
        draft.ref ?? null,
        (this.options.now ?? Date.now)(),
        haystackOf(fields),
        tokens.length,
        trigrams,
      ],
    );
    const row = rows[0];
    if (row === undefined) throw new Error("knowledge entry vanished after insert");
    await this.#indexTokens(client, row.id, tokens.hits);
    await client.query(
      `UPDATE ${KNOWLEDGE_TOTALS} SET gram_rows = gram_rows + 1, gram_tokens = gram_tokens + $1,
         trigram_rows = trigram_rows + 1, trigram_tokens = trigram_tokens + $2`,
      [tokens.length, trigrams],
    );
    return toEntry(row);
  }

  async #upsert(client: Client, draft: KeyedDraft): Promise<UpsertOutcome> {
    const { rows } = await client.query<KnowledgeRow & { trigram_length: number }>(
      `SELECT ${ROW_COLUMNS}, k.trigram_length FROM ${KNOWLEDGE_TABLE} k
        WHERE coalesce(k.owner, '') = $1 AND k.ref = $2 FOR UPDATE`,
      [draft.owner ?? "", draft.ref],
    );
    const existing = rows[0];
    const tags = JSON.stringify(draft.tags ?? []);
    if (existing === undefined) {
      await this.#insert(client, draft);
      return "imported";
    }
    if (existing.title === draft.title && existing.body === draft.body && existing.tags === tags)
      return "skipped";
    const fields = { title: draft.title, body: draft.body, tags };
    const tokens = this.#tokenizer.entry(fields);
    const trigrams = trigramLength(fields);
    await client.query(
      `UPDATE ${KNOWLEDGE_TABLE} SET title = $1, body = $2, tags = $3, source = $4, haystack = $5,
         gram_length = $6, trigram_length = $7 WHERE id = $8`,
      [draft.title, draft.body, tags, draft.source, haystackOf(fields), tokens.length, trigrams, existing.id],
    );
    await client.query(`DELETE FROM ${KNOWLEDGE_TOKENS} WHERE entry = $1`, [existing.id]);
    await this.#indexTokens(client, existing.id, tokens.hits);
    // as the embedded index: the replaced row's tokens stay counted (contentless), the new ones are added
    await client.query(
      `UPDATE ${KNOWLEDGE_TOTALS} SET gram_rows = gram_rows + 1, gram_tokens = gram_tokens + $1,
         trigram_tokens = trigram_tokens + $2`,
      [tokens.length, trigrams - existing.trigram_length],
    );
    return "updated";
  }

  async #indexTokens(client: Client, id: number, hits: ReadonlyMap<string, number>): Promise<void> {
    if (hits.size === 0) return;
    await client.query(
      `INSERT INTO ${KNOWLEDGE_TOKENS} (token, entry, hits) SELECT token, $1, hits
         FROM unnest($2::text[], $3::int[]) AS x(token, hits)`,
      [id, [...hits.keys()], [...hits.values()]],
    );
  }

  async #transaction<T>(
    change: KnowledgeChange | undefined,
    work: (client: Client) => Promise<T>,
  ): Promise<T> {
    const client = await this.pool.connect();
    let result: T;
    try {
      await client.query("BEGIN");
      try {
        result = await work(client);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
    } finally {
      client.release();
    }
    if (change !== undefined) this.options.onChange?.(change);
    return result;
  }
}
