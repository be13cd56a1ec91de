import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresDatabase } from "../../src/data/network/postgres-database.js";
import type { Migration } from "../../src/data/network/postgres-migrations.js";
import { loadStorageConfig } from "../../src/data/network/storage-config.js";
import { silentLogger } from "../../src/util/logger.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";

const dataDir = () => mkdtempSync(join(tmpdir(), "system-storage-"));

describe("storage.json", () => {
  it("defaults to files and writes the default file for admins to find", async () => {
    const dir = dataDir();
    expect(await loadStorageConfig(dir, silentLogger)).toEqual({ backend: "files" });
    expect(JSON.parse(readFileSync(join(dir, "config", "system", "storage.json"), "utf8"))).toEqual({
      backend: "files",
    });
  });

  it("refuses a postgres URL that holds a password, naming the file", async () => {
    const dir = dataDir();
    mkdirSync(join(dir, "config", "system"), { recursive: true });
    writeFileSync(
      join(dir, "config", "system", "storage.json"),
      JSON.stringify({ backend: "postgres", url: "postgres://system:secret@127.0.0.1/system" }),
    );
    await expect(loadStorageConfig(dir, silentLogger)).rejects.toThrow(/storage\.json/);
  });
});

describe("schema migrations on PostgreSQL", () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(() => cluster.stop());

  const first: Migration = { name: "001-a", statements: ["CREATE TABLE a (id int PRIMARY KEY)"] };
  const second: Migration = { name: "002-b", statements: ["CREATE TABLE b (id int PRIMARY KEY)"] };

  it("applies each migration once, in name order, even when two servers start together", async () => {
    const url = await cluster.createDatabase("migrations_once");
    const open = (migrations: Migration[]) =>
      openPostgresDatabase({
        config: { backend: "postgres", url, poolSize: 2 },
        dataDir: dataDir(),
        environment: {},
        migrations,
        logger: silentLogger,
      });
    const [one, two] = await Promise.all([open([second, first]), open([first, second])]);
    const { rows } = await one.pool.query("SELECT name FROM system_schema_migrations ORDER BY name");
    expect(rows.map((row) => row.name)).toEqual(["001-a", "002-b"]);
    await Promise.all([one.close(), two.close()]);
  });

  it("rolls a failing migration back and stops the start naming it, without the password", async () => {
    const url = await cluster.createDatabase("migrations_fail");
    const broken: Migration = {
      name: "003-broken",
      statements: ["CREATE TABLE c (id int)", "SELECT nonsense("],
    };
    await expect(
      openPostgresDatabase({
        config: { backend: "postgres", url, poolSize: 1 },
        dataDir: dataDir(),
        environment: { PGPASSWORD: "hunter2" },
        migrations: [first, broken],
        logger: silentLogger,
      }),
    ).rejects.toThrow(/003-broken/);
    const check = await openPostgresDatabase({
      config: { backend: "postgres", url, poolSize: 1 },
      dataDir: dataDir(),
      environment: {},
      migrations: [],
      logger: silentLogger,
    });
    const tables = await check.pool.query("SELECT to_regclass('c') AS c, to_regclass('a') AS a");
    expect(tables.rows[0]).toEqual({ c: null, a: "a" });
    await check.close();
  });
});
