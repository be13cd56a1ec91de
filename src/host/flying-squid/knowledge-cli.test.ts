import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentEngine } from "../../agent/execution/agent-engine.js";
import { ServiceContext } from "../../agent/module/context-type.js";
import type { ModuleRegistry } from "../../agent/module/module-registry.js";
import { KnowledgeDatabase } from "../../data/knowledge/knowledge-database.js";
import { SqliteKnowledgeStore } from "../../data/knowledge/sqlite-knowledge-store.js";
import { KNOWLEDGE_STORE, KnowledgeSystemModule } from "../../module/builtin/knowledge/knowledge-module.js";
import { featureRegistrar } from "../../module/feature-registrar.js";
import { SERVER_PATHS } from "../../module/server-paths.js";
import { Identifier } from "../../util/identifier.js";
import { MemoryLogger } from "../../util/logger.js";
import { serverConfigPath } from "../shared/server-config.js";
import { knowledgeCommand, serverKnowledgeDatabase } from "./knowledge-cli.js";

let dataDir: string;
let notes: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "system-knowledge-cli-"));
  notes = join(dataDir, "notes");
  await mkdir(notes);
  await writeFile(join(notes, "rules.md"), "# Rules\nNo griefing near spawn.");
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

class Buffered {
  text = "";
  readonly isTTY = false;
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

const run = async (args: readonly string[]) => {
  const out = new Buffered();
  const err = new Buffered();
  const code = await knowledgeCommand(args, { out, err });
  return { code, out: out.text, err: err.text };
};

/** The database the knowledge feature opens for this data directory's world and entry settings. */
const featureDatabase = (world: string, database?: string): KnowledgeDatabase | undefined => {
  const engine = new AgentEngine();
  const services = new ServiceContext<AgentEngine, ModuleRegistry>(engine, engine.modules()).provide(
    SERVER_PATHS,
    { dataDir, world },
  );
  const module = new KnowledgeSystemModule(
    Identifier.parse("system:knowledge"),
    database === undefined ? {} : { database },
  );
  module.install({ engine: featureRegistrar(engine, module, new Set()), services, id: module.id });
  const store = services.find(KNOWLEDGE_STORE);
  return store instanceof SqliteKnowledgeStore ? store.database : undefined;
};

describe("system knowledge import", () => {
  it("writes the database the server reads: <world>/system/knowledge.sqlite by default", async () => {
    const result = await run(["import", notes, "--data-dir", dataDir]);
    const path = join(dataDir, "world", "system", "knowledge.sqlite");
    expect(result.out).toContain(`imported 1, updated 0, skipped 0, failed 0 (${path})`);
    expect(result.code).toBe(0);
    const database = featureDatabase(join(dataDir, "world"));
    expect(database?.search({ query: "griefing", playerId: undefined, limit: 5 })).toHaveLength(1);
    database?.close();
  });

  it("follows the server's world folder and the data pack's database setting, as the feature does", async () => {
    await mkdir(join(dataDir, "config", "system"), { recursive: true });
    await writeFile(serverConfigPath(dataDir), JSON.stringify({ worldFolder: "saves/main" }));
    const pack = join(dataDir, "datapacks", "data", "system", "system_module");
    await mkdir(pack, { recursive: true });
    await writeFile(
      join(pack, "knowledge.json"),
      JSON.stringify({ type: "system:knowledge", server: { database: "kb/custom.sqlite" } }),
    );
    const world = join(dataDir, "saves", "main");
    const expected = join(world, "system", "kb", "custom.sqlite");
    expect(await serverKnowledgeDatabase({ dataDir, logger: new MemoryLogger() })).toBe(expected);
    const result = await run(["import", notes, `--data-dir=${dataDir}`]);
    expect(result.out).toContain(`(${expected})`);
    const database = featureDatabase(world, "kb/custom.sqlite");
    expect(database?.count()).toBe(1);
    database?.close();
  });

  it("--db overrides the server's database", async () => {
    const path = join(dataDir, "other.sqlite");
    const result = await run(["import", notes, "--data-dir", dataDir, "--db", path]);
    expect(result.code).toBe(0);
    expect(result.out).toContain(`(${path})`);
    const database = KnowledgeDatabase.open(path);
    expect(database.count()).toBe(1);
    database.close();
  });

  it("reports an unreadable database by name and does not touch it", async () => {
    const path = join(dataDir, "broken.sqlite");
    await writeFile(path, "not a database at all, just text that is long enough to have a header");
    const result = await run(["import", notes, "--db", path]);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`knowledge database ${path} is unreadable (file is not a database)`);
  });

  it("reports usage errors with exit code 2", async () => {
    expect((await run(["import"])).code).toBe(2);
    expect((await run(["import", notes, "--data-dir"])).err).toContain("--data-dir needs a value");
    expect((await run(["export", notes])).err).toContain(
      "usage: system knowledge import <dir> [--data-dir DIR]",
    );
  });
});
