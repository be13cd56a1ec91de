import { z } from "zod";
import { ContextType } from "../../../agent/module/context-type.js";
import type { AnyModuleStorage } from "../../../agent/storage/module-storage.js";
import type { AnyTool } from "../../../agent/tool/tool.js";
import { KnowledgeAdmin } from "../../../data/knowledge/knowledge-admin.js";
import { defaultKnowledgePath } from "../../../data/knowledge/knowledge-cli.js";
import { KnowledgeDatabase } from "../../../data/knowledge/knowledge-database.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import { databaseQueryTool } from "./database-query-tool.js";
import { KnowledgeAdminModule } from "./knowledge-admin-commands.js";

/** The knowledge database the server assembly opened (preferred over the config path). */
export const KNOWLEDGE_DATABASE = ContextType.of<KnowledgeDatabase>("system:knowledge_database");

export const KNOWLEDGE_CONFIG = codec(z.object({ database: z.string().min(1).optional() }));
export type KnowledgeConfig = z.infer<typeof KNOWLEDGE_CONFIG.schema>;

/**
 * The knowledge feature: a ToolModule exporting the read-only `database.query` (declared for reasoning) over
 * the injected database, or one it opens from `server.database` (default `<data dir>/system/knowledge.sqlite`).
 * `admin` is what the in-game admin commands call.
 */
export class KnowledgeSystemModule implements ServerModule {
  readonly type = KNOWLEDGE_MODULE_TYPE_ID;
  readonly enabledByDefault = true;
  readonly toolModule = true;
  #database: KnowledgeDatabase | undefined;
  #admin: KnowledgeAdmin | undefined;

  constructor(
    readonly id: Identifier,
    private readonly config: KnowledgeConfig,
  ) {}

  get database(): KnowledgeDatabase | undefined {
    return this.#database;
  }

  /** Admin add/remove (KnowledgeAdmin.add/remove) once installed. */
  get admin(): KnowledgeAdmin | undefined {
    return this.#admin;
  }

  install(context: ServerModuleContext): void {
    const database =
      context.services.find(KNOWLEDGE_DATABASE) ??
      KnowledgeDatabase.open(this.config.database ?? defaultKnowledgePath());
    context.engine.registerTool(databaseQueryTool(database).ownedBy(context.id) as unknown as AnyTool);
    this.#database = database;
    this.#admin = new KnowledgeAdmin(database);
    context.engine.registerModule(new KnowledgeAdminModule(this.#admin));
  }

  storages(): readonly AnyModuleStorage[] {
    return [];
  }
}

export const KNOWLEDGE_MODULE_TYPE_ID = Identifier.parse("system:knowledge");

/** The `system:knowledge` module type the built-in type registry lists. */
export const KNOWLEDGE_MODULE_TYPE: ServerModuleType<KnowledgeConfig> = {
  id: KNOWLEDGE_MODULE_TYPE_ID,
  config: KNOWLEDGE_CONFIG,
  create: (id, config) => new KnowledgeSystemModule(id, config),
};
