import { z } from "zod";
import { codec } from "../../util/codec.js";

/** Where an entry came from: an imported file, a web page saved by an admin, or an in-game admin command. */
export type KnowledgeSource = "file" | "url" | "admin";

/** One knowledge entry. `owner` undefined = the shared `system:knowledge` table; a UUID = that player's private entry. */
export interface KnowledgeEntry {
  readonly id: number;
  readonly title: string;
  readonly body: string;
  readonly source: KnowledgeSource;
  readonly tags: readonly string[];
  /** Epoch millis of the first insert (kept when an import updates the entry). */
  readonly created: number;
  readonly owner: string | undefined;
  /** A stable origin key (import path, URL) so a re-import updates instead of duplicating. */
  readonly ref: string | undefined;
}

/** What a caller provides to add or replace an entry. */
export interface KnowledgeDraft {
  readonly title: string;
  readonly body: string;
  readonly source: KnowledgeSource;
  readonly tags?: readonly string[];
  readonly owner?: string | undefined;
  readonly ref?: string | undefined;
}

/** One search hit: the entry and a short excerpt around the first matched term. */
export interface KnowledgeHit {
  readonly entry: KnowledgeEntry;
  readonly snippet: string;
}

export const MAX_TITLE_CHARS = 200;
export const MAX_BODY_CHARS = 200_000;
export const MAX_TAGS = 16;

/** A draft as admins and JSON imports give it; bounded so one entry cannot flood a prompt or the database. */
export const DRAFT_FIELDS = z.object({
  title: z.string().trim().min(1).max(MAX_TITLE_CHARS),
  body: z.string().trim().min(1).max(MAX_BODY_CHARS),
  tags: z.array(z.string().trim().min(1).max(64)).max(MAX_TAGS).optional(),
});

/** The item shape of a JSON import file: `[{"title": …, "body": …, "tags": […]}]`. */
export const JSON_IMPORT_CODEC = codec(z.array(DRAFT_FIELDS).max(100_000));
