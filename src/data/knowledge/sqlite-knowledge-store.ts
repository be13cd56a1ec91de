import type { KnowledgeDatabase } from "./knowledge-database.js";
import type { KnowledgeDraft, KnowledgeEntry, KnowledgeHit } from "./knowledge-entry.js";
import type { KeyedDraft, KnowledgeQuery, KnowledgeStore, UpsertOutcome } from "./knowledge-store.js";

/** The knowledge store of one server: the SQLite file (KnowledgeDatabase) behind the async interface. */
export class SqliteKnowledgeStore implements KnowledgeStore {
  readonly description: string;

  constructor(
    /** The database itself, for code that runs beside it synchronously (tests, the bench). */
    readonly database: KnowledgeDatabase,
    path: string,
  ) {
    this.description = `sqlite ${path}`;
  }

  async add(draft: KnowledgeDraft): Promise<KnowledgeEntry> {
    return this.database.add(draft);
  }

  async upsert(draft: KeyedDraft): Promise<UpsertOutcome> {
    return this.database.upsert(draft);
  }

  async upsertAll(drafts: readonly KeyedDraft[]): Promise<UpsertOutcome[]> {
    return this.database.transaction(() => drafts.map((draft) => this.database.upsert(draft)));
  }

  async get(id: number): Promise<KnowledgeEntry | undefined> {
    return this.database.get(id);
  }

  async remove(id: number, owner?: string): Promise<boolean> {
    return this.database.remove(id, owner);
  }

  async count(): Promise<number> {
    return this.database.count();
  }

  async list(options: { readonly after: number; readonly limit: number }): Promise<KnowledgeEntry[]> {
    return this.database.list(options);
  }

  async search(query: KnowledgeQuery): Promise<KnowledgeHit[]> {
    return this.database.search(query);
  }

  async close(): Promise<void> {
    this.database.close();
  }
}
