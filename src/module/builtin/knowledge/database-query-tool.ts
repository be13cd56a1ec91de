import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { Tool } from "../../../agent/tool/tool.js";
import { ToolType } from "../../../agent/tool/tool-type.js";
import type { KnowledgeStore } from "../../../data/knowledge/knowledge-store.js";
import { codec } from "../../../util/codec.js";

/** Characters of an entry's stored text a query returns (enough to answer from, bounded for prompts). */
export const ENTRY_TEXT_CHARS = 1_500;

export interface DatabaseQueryInput {
  readonly query: string;
  readonly limit: number;
}

/** One visible entry as the tool returns it. */
export interface DatabaseEntry {
  readonly id: number;
  readonly title: string;
  readonly snippet: string;
  /** The stored text (trimmed): what a player sees when no model may summarise. */
  readonly text: string;
  readonly source: "file" | "url" | "admin";
  /** True for the asking player's private entry. */
  readonly private: boolean;
}

export interface DatabaseQueryOutput {
  readonly entries: readonly DatabaseEntry[];
}

const INPUT = codec<DatabaseQueryInput>(
  z.object({
    // as long as the longest question (/question declares 2,000 characters)
    query: z.string().trim().min(1).max(2_000).describe("Keywords or a short question, any language."),
    limit: z.number().int().min(1).max(10).default(5).describe("Most entries to return."),
  }) as unknown as z.ZodType<DatabaseQueryInput>,
);

const OUTPUT = codec<DatabaseQueryOutput>(
  z.object({
    entries: z.array(
      z.object({
        id: z.number().int(),
        title: z.string(),
        snippet: z.string(),
        text: z.string(),
        source: z.enum(["file", "url", "admin"]),
        private: z.boolean(),
      }),
    ),
  }),
);

/** `system:database.query`: searches the server knowledge base (shared entries plus the player's own). */
export const DATABASE_QUERY = ToolType.of("system:database.query", INPUT, OUTPUT);

const trimText = (text: string): string =>
  text.length <= ENTRY_TEXT_CHARS ? text : `${text.slice(0, ENTRY_TEXT_CHARS)}…`;

/**
 * The read-only query tool over the knowledge store (whichever backend). A database error is MODULE_FAILED, never an empty
 * result: "nothing stored" and "could not look" must stay different answers (the second never goes to the web).
 */
export const databaseQueryTool = (store: KnowledgeStore): Tool<DatabaseQueryInput, DatabaseQueryOutput> =>
  Tool.of(DATABASE_QUERY, async (input, scope) => {
    try {
      const hits = await store.search({ query: input.query, playerId: scope.playerId, limit: input.limit });
      return {
        entries: hits.map(({ entry, snippet }) => ({
          id: entry.id,
          title: entry.title,
          snippet,
          text: trimText(entry.body),
          source: entry.source,
          private: entry.owner !== undefined,
        })),
      };
    } catch (error) {
      if (error instanceof AgentException) throw error;
      throw new AgentException(AgentFailure.MODULE_FAILED.with("database.query"), { cause: error });
    }
  })
    .asReadOnly()
    .forReasoning(
      "Search the server's knowledge base (guides, rules, notes) by keywords; returns matching entries.",
    );
