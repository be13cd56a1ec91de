import { existsSync, statSync } from "node:fs";
import { ContextType, ServiceContext } from "../../../agent/module/context-type.js";
import type { AnyModuleStorage } from "../../../agent/storage/module-storage.js";
import { KnowledgeAdmin } from "../../../data/knowledge/knowledge-admin.js";
import { KnowledgeDatabase } from "../../../data/knowledge/knowledge-database.js";
import type { KnowledgeDraft } from "../../../data/knowledge/knowledge-entry.js";
import type { KnowledgeStore } from "../../../data/knowledge/knowledge-store.js";
import { SqliteKnowledgeStore } from "../../../data/knowledge/sqlite-knowledge-store.js";
import { CorruptFileError } from "../../../util/corrupt-file-error.js";
import type { Identifier } from "../../../util/identifier.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import { SERVER_PATHS } from "../../server-paths.js";
import { databaseQueryTool } from "./database-query-tool.js";
import { KnowledgeAdminModule } from "./knowledge-admin-commands.js";
import {
  KNOWLEDGE_CONFIG,
  KNOWLEDGE_MODULE_TYPE_ID,
  type KnowledgeConfig,
  knowledgeDatabasePath,
  needsWorld,
} from "./knowledge-settings.js";

export {
  KNOWLEDGE_CONFIG,
  KNOWLEDGE_MODULE_TYPE_ID,
  type KnowledgeConfig,
  knowledgeDatabasePath,
} from "./knowledge-settings.js";

/**
 * The knowledge store, for features installed after this one (the question workflow). The knowledge feature
 * provides the SQLite store it opened; a store provided before it (the network's PostgreSQL one, tests) is used
 * instead and not closed. Features search and write through it without knowing the backend.
 */
export const KNOWLEDGE_STORE = ContextType.of<KnowledgeStore>("system:knowledge_store");

/**
 * The knowledge feature: a ToolModule exporting the read-only `database.query` (declared for reasoning) and the
 * admin commands over the knowledge store: the provided one, or the SQLite database it opens at install from
 * `server.database` (see knowledgeDatabasePath; the world folder comes from SERVER_PATHS) and closes in
 * `close()`. A database that cannot be opened makes install throw a one-line CorruptFileError naming the file,
 * so the feature is not installed.
 */
export class KnowledgeSystemModule implements ServerModule {
  readonly type = KNOWLEDGE_MODULE_TYPE_ID;
  readonly enabledByDefault = true;
  readonly toolModule = true;
  #store: KnowledgeStore | undefined;
  #owned = false;
  #admin: KnowledgeAdmin | undefined;

  constructor(
    readonly id: Identifier,
    private readonly config: KnowledgeConfig,
  ) {}

  get store(): KnowledgeStore | undefined {
    return this.#store;
  }

  /** The SQLite database behind the store, when the store is the embedded one. */
  get database(): KnowledgeDatabase | undefined {
    return this.#store instanceof SqliteKnowledgeStore ? this.#store.database : undefined;
  }

  /** Admin add/remove (KnowledgeAdmin.add/remove) once installed. */
  get admin(): KnowledgeAdmin | undefined {
    return this.#admin;
  }

  install(context: ServerModuleContext): void {
    const provided = context.services.find(KNOWLEDGE_STORE);
    const store = provided ?? this.#open(context);
    try {
      context.engine.registerTool(databaseQueryTool(store).ownedBy(context.id));
      const admin = new KnowledgeAdmin(store);
      context.engine.registerModule(new KnowledgeAdminModule(admin));
      if (provided === undefined && context.services instanceof ServiceContext)
        context.services.provide(KNOWLEDGE_STORE, store);
      this.#admin = admin;
    } catch (error) {
      if (provided === undefined) void store.close();
      throw error;
    }
    this.#store = store;
    this.#owned = provided === undefined;
  }

  close(): void {
    if (this.#owned) void this.#store?.close();
  }

  storages(): readonly AnyModuleStorage[] {
    return [];
  }

  #open(context: ServerModuleContext): KnowledgeStore {
    const setting = this.config.database;
    const world = needsWorld(setting) ? context.services.get(SERVER_PATHS).world : "";
    const path = knowledgeDatabasePath({ world, setting });
    try {
      const fresh = path !== ":memory:" && !(existsSync(path) && statSync(path).size > 0);
      const database = KnowledgeDatabase.open(path);
      // a new server answers help's own example ("what are the server rules") with an entry its admin replaces
      if (fresh) database.add(STARTER_RULES);
      return new SqliteKnowledgeStore(database, path);
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      throw new CorruptFileError(path, `${problem}; the knowledge feature is unavailable`, { cause: error });
    }
  }
}

/** The one entry a new knowledge database starts with: the server's rules, for its admin to replace. */
export const STARTER_RULES: KnowledgeDraft = {
  title: "Server rules · 服务器规则",
  body: [
    "The admin of this server has not written its rules yet. Until then: be kind, do not grief or steal, and ask an admin when in doubt.",
    "本服务器的管理员还没有写下规则。在此之前：友善相处，不要破坏或偷拿他人的东西，有疑问请问管理员。",
    "(Admins: /system knowledge remove <id> removes this entry; /system knowledge add Server rules | <your rules> writes yours.)",
  ].join("\n"),
  source: "admin",
  tags: ["rules", "规则"],
};

/** The `system:knowledge` module type the built-in type registry lists. */
export const KNOWLEDGE_MODULE_TYPE: ServerModuleType<KnowledgeConfig> = {
  id: KNOWLEDGE_MODULE_TYPE_ID,
  config: KNOWLEDGE_CONFIG,
  create: (id, config) => new KnowledgeSystemModule(id, config),
};
