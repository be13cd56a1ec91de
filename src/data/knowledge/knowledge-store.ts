import type { KnowledgeQuery, UpsertOutcome } from "./knowledge-database.js";
import type { KnowledgeDraft, KnowledgeEntry, KnowledgeHit } from "./knowledge-entry.js";

export type { KnowledgeQuery, UpsertOutcome } from "./knowledge-database.js";

/** A draft with a stable origin key: a re-import replaces the entry instead of adding another. */
export type KeyedDraft = KnowledgeDraft & { readonly ref: string };

/**
 * The knowledge base, whichever backend holds it: SQLite in the world folder (one server) or the network's
 * PostgreSQL. Both index the same tokens and rank with the same BM25, so a query finds the same entries in the
 * same order on either. Every method rejects on storage errors: "nothing found" is never a failure in disguise.
 */
export interface KnowledgeStore {
  /** Which backend this is, for logs (`sqlite <path>`, `postgres`). */
  readonly description: string;
  add(draft: KnowledgeDraft): Promise<KnowledgeEntry>;
  /** Adds or replaces the entry with the same owner and `ref`; an identical entry is left alone. */
  upsert(draft: KeyedDraft): Promise<UpsertOutcome>;
  /** Several upserts in one transaction (one imported file): all or nothing. */
  upsertAll(drafts: readonly KeyedDraft[]): Promise<UpsertOutcome[]>;
  get(id: number): Promise<KnowledgeEntry | undefined>;
  /** Removes an entry; with `owner`, only that player's private entry. True when one was deleted. */
  remove(id: number, owner?: string): Promise<boolean>;
  count(): Promise<number>;
  /** Entries in id order after `after` (0 for the first page), at most `limit`. */
  list(options: { readonly after: number; readonly limit: number }): Promise<KnowledgeEntry[]>;
  /** Entries matching the query, best first: shared plus the asking player's private ones. */
  search(query: KnowledgeQuery): Promise<KnowledgeHit[]>;
  close(): Promise<void>;
}
