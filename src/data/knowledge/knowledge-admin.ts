import { DRAFT_FIELDS, type KnowledgeEntry } from "./knowledge-entry.js";
import type { KnowledgeStore } from "./knowledge-store.js";

/** The outcome of an admin change, as a value (the in-game command turns it into a card). */
export type AdminOutcome<T> =
  | { readonly success: true; readonly value: T }
  | { readonly success: false; readonly error: string };

/** What an admin types: a title, a body, optional tags, and optionally the player who owns a private entry. */
export interface AdminDraft {
  readonly title: string;
  readonly body: string;
  readonly tags?: readonly string[];
  readonly owner?: string;
}

/**
 * Admin changes to the knowledge base (the in-game admin commands call these). Input is validated here, so a
 * command cannot store an empty or oversized entry; database errors still throw.
 */
export class KnowledgeAdmin {
  constructor(private readonly store: KnowledgeStore) {}

  async add(draft: AdminDraft): Promise<AdminOutcome<KnowledgeEntry>> {
    const decoded = DRAFT_FIELDS.safeParse({ title: draft.title, body: draft.body, tags: draft.tags });
    if (!decoded.success)
      return { success: false, error: decoded.error.issues.map((issue) => issue.message).join("; ") };
    const entry = await this.store.add({
      title: decoded.data.title,
      body: decoded.data.body,
      tags: decoded.data.tags ?? [],
      source: "admin",
      owner: draft.owner,
    });
    return { success: true, value: entry };
  }

  /** Removes an entry by id; false when it did not exist. */
  async remove(id: number): Promise<AdminOutcome<boolean>> {
    if (!Number.isSafeInteger(id) || id <= 0) return { success: false, error: "invalid entry id" };
    return { success: true, value: await this.store.remove(id) };
  }
}
