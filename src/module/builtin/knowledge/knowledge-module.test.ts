import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentEngine } from "../../../agent/execution/agent-engine.js";
import { ServiceContext } from "../../../agent/module/context-type.js";
import type { ModuleRegistry } from "../../../agent/module/module-registry.js";
import { KnowledgeDatabase } from "../../../data/knowledge/knowledge-database.js";
import { SqliteKnowledgeStore } from "../../../data/knowledge/sqlite-knowledge-store.js";
import type { Json } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import { type Logger, MemoryLogger } from "../../../util/logger.js";
import { Registry } from "../../../util/registry.js";
import { featureRegistrar } from "../../feature-registrar.js";
import { FeatureSwitches } from "../../feature-switches.js";
import { ModuleManager } from "../../module-manager.js";
import type { AnyServerModuleType, SystemModuleEntry } from "../../server-module.js";
import { SERVER_PATHS } from "../../server-paths.js";
import { SystemModuleTags } from "../../system-module-tags.js";
import { DATABASE_QUERY } from "./database-query-tool.js";
import {
  KNOWLEDGE_MODULE_TYPE,
  KNOWLEDGE_STORE,
  KnowledgeSystemModule,
  STARTER_RULES,
} from "./knowledge-module.js";

let dataDir: string;
let world: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "system-knowledge-"));
  world = join(dataDir, "world");
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const entry = (server: Json = {}): SystemModuleEntry => ({
  id: Identifier.parse("system:knowledge"),
  type: KNOWLEDGE_MODULE_TYPE.id,
  enabled: true,
  enabledByDefault: undefined,
  server,
  client: {},
  source: "test",
});

/** Installs the knowledge entry through the real ModuleManager, as the server does. */
const install = (server: Json = {}, logger: Logger = new MemoryLogger()) => {
  const engine = new AgentEngine({ logger });
  const services = new ServiceContext<AgentEngine, ModuleRegistry>(engine, engine.modules()).provide(
    SERVER_PATHS,
    { dataDir, world },
  );
  const types = new Registry<AnyServerModuleType>("server_module");
  types.register(KNOWLEDGE_MODULE_TYPE.id, KNOWLEDGE_MODULE_TYPE as AnyServerModuleType);
  const manager = new ModuleManager({
    types,
    engine,
    logger,
    switches: new FeatureSwitches(undefined, logger),
    tags: SystemModuleTags.empty(),
  });
  manager.install([entry(server)], services);
  const module = manager.get("system:knowledge")?.module as KnowledgeSystemModule | undefined;
  return { engine, services, manager, module };
};

describe("the knowledge feature", () => {
  it("opens <world>/system/knowledge.sqlite, provides it to later features and closes it at shutdown", async () => {
    const { engine, services, manager, module } = install();
    const store = services.find(KNOWLEDGE_STORE);
    expect(store).toBeInstanceOf(SqliteKnowledgeStore);
    expect(module?.store).toBe(store);
    const database = module?.database;
    expect(engine.tools.get(DATABASE_QUERY.id)).toBeDefined();
    database?.add({ title: "Spawn", body: "The spawn is at 0 64 0.", source: "admin" });
    await manager.close();
    expect(database?.open).toBe(false);
    const reopened = KnowledgeDatabase.open(join(world, "system", "knowledge.sqlite"));
    // the starter rules entry a new database begins with, and the admin's
    expect(reopened.count()).toBe(2);
    expect(reopened.get(1)?.title).toBe(STARTER_RULES.title);
    reopened.close();
  });

  it("honours the entry's database setting: relative to <world>/system, or absolute", async () => {
    const relative = install({ database: "kb/server.sqlite" });
    await relative.services.find(KNOWLEDGE_STORE)?.add({ title: "a", body: "b", source: "admin" });
    await relative.manager.close();
    const opened = KnowledgeDatabase.open(join(world, "system", "kb", "server.sqlite"));
    expect(opened.count()).toBe(2);
    opened.close();
    const absolute = join(dataDir, "elsewhere.sqlite");
    const other = install({ database: absolute });
    await other.services.find(KNOWLEDGE_STORE)?.add({ title: "a", body: "b", source: "admin" });
    await other.manager.close();
    const again = KnowledgeDatabase.open(absolute);
    expect(again.count()).toBe(2);
    again.close();
  });

  it("a corrupt database leaves the feature uninstalled with one clear line naming the file", async () => {
    const path = join(world, "system", "knowledge.sqlite");
    await mkdir(join(world, "system"), { recursive: true });
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 131 + 7) % 256));
    await writeFile(path, garbage);
    const causes: unknown[] = [];
    const logger = new MemoryLogger();
    const capturing: Logger = {
      info: (message) => logger.info(message),
      warn: (message) => logger.warn(message),
      error: (message, cause) => {
        causes.push(cause);
        logger.error(message, cause);
      },
    };
    const { engine, services, manager } = install({}, capturing);
    expect(manager.isInstalled("system:knowledge")).toBe(false);
    expect(services.find(KNOWLEDGE_STORE)).toBeUndefined();
    expect(engine.tools.get(DATABASE_QUERY.id)).toBeUndefined();
    const errors = logger.lines.filter((line) => line.startsWith("ERROR"));
    expect(errors).toHaveLength(1);
    // the file is left in place, and a copy of it is kept before anything could be written over it
    expect(errors[0]).toMatch(
      `knowledge database ${path} is unreadable (file is not a database); a copy is kept at ${path}.corrupt-`,
    );
    expect(errors[0]).toContain("; the knowledge feature is unavailable");
    // The console logger prints the cause with util.inspect: one line, no stack trace.
    expect(inspect(causes[0])).not.toContain("\n");
    expect(await readFile(path)).toEqual(garbage);
  });

  it("uses a database provided before it (tests) and leaves closing it to its owner", async () => {
    const engine = new AgentEngine();
    const provided = KnowledgeDatabase.open(":memory:");
    const services = new ServiceContext<AgentEngine, ModuleRegistry>(engine, engine.modules()).provide(
      KNOWLEDGE_STORE,
      new SqliteKnowledgeStore(provided, ":memory:"),
    );
    const module = new KnowledgeSystemModule(Identifier.parse("system:knowledge"), {});
    module.install({ engine: featureRegistrar(engine, module, new Set()), services, id: module.id });
    expect(module.database).toBe(provided);
    module.close();
    expect(provided.open).toBe(true);
    provided.close();
  });
});
