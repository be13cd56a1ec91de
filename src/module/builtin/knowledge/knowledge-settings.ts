import { isAbsolute, join } from "node:path";
import { z } from "zod";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";

export const KNOWLEDGE_MODULE_TYPE_ID = Identifier.parse("system:knowledge");

/** The `server` object of the knowledge feature's data-pack entry (`system_module/knowledge.json`). */
export const KNOWLEDGE_CONFIG = codec(z.object({ database: z.string().min(1).optional() }));
export type KnowledgeConfig = z.infer<typeof KNOWLEDGE_CONFIG.schema>;

/** The database file name when the entry sets none: `<world>/system/knowledge.sqlite`. */
export const DEFAULT_KNOWLEDGE_DATABASE = "knowledge.sqlite";

/** Whether a `database` setting is resolved against the world folder (relative, or absent). */
export const needsWorld = (setting: string | undefined): boolean =>
  setting === undefined || (setting !== ":memory:" && !isAbsolute(setting));

/**
 * The knowledge database file of a server: the entry's `database` setting (absolute, `:memory:`, or relative to
 * `<world>/system/`), else `<world>/system/knowledge.sqlite`. The feature and `system knowledge import` both
 * use this, so they always agree.
 */
export const knowledgeDatabasePath = (options: {
  readonly world: string;
  readonly setting: string | undefined;
}): string => {
  const { world, setting } = options;
  if (setting !== undefined && !needsWorld(setting)) return setting;
  return join(world, "system", setting ?? DEFAULT_KNOWLEDGE_DATABASE);
};
