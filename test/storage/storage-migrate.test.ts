import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModuleData } from "../../src/agent/storage/player-data.js";
import { localDay } from "../../src/agent/storage/usage-store.js";
import { runCli } from "../../src/cli-commands.js";
import { PostgresAgentStore } from "../../src/data/network/postgres-agent-store.js";
import { PostgresPlayerState } from "../../src/data/network/postgres-points.js";
import { FileAgentStore } from "../../src/data/store/file-agent-store.js";
import { FileUsageStore } from "../../src/data/store/file-usage-store.js";
import { claimInFiles } from "../../src/module/builtin/check-in/check-in-claim.js";
import { CheckInLedger } from "../../src/module/builtin/storage/check-in-ledger.js";
import { checkInStorage } from "../../src/module/builtin/storage/check-in-storage.js";
import { PlayerFilePoints } from "../../src/module/builtin/storage/player-file-points.js";
import { Identifier } from "../../src/util/identifier.js";
import { silentLogger } from "../../src/util/logger.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";
import { CHECK_IN_CONFIG } from "./network-backends.js";

const STEVE = "00000000-0000-3000-8000-000000000001";
const ALEX = "00000000-0000-3000-8000-000000000002";
const CHECK_IN_OWNER = Identifier.parse("system:check_in");

const cli = async (args: string[]): Promise<{ code: number; out: string; err: string }> => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: { write: (text: string) => out.push(text) > 0 },
    err: { write: (text: string) => err.push(text) > 0 },
  });
  return { code, out: out.join(""), err: err.join("") };
};

/**
 * A stopped server's files: points of two players, Steve's check-in of today, two usage records, both player
 * files (Alex chose preferences) and Steve's chat cache.
 */
const writeServerFiles = async (dataDir: string): Promise<void> => {
  const world = join(dataDir, "world");
  const store = new FileAgentStore({ world });
  const points = new PlayerFilePoints(store);
  await points.credit(ALEX, { id: "admin-1", amount: 40, reason: "admin:Admin", at: 1 });
  await points.debit(ALEX, { id: "order:1", amount: 15, reason: "shop:bread", at: 2 });
  const day = localDay(Date.now());
  await claimInFiles(
    {
      playerId: STEVE,
      day,
      yesterday: "2000-01-01",
      now: Date.now(),
      config: CHECK_IN_CONFIG,
      store,
      storage: checkInStorage(CHECK_IN_OWNER),
    },
    new CheckInLedger(join(world, "system", "check-in-ledger.json")),
    silentLogger,
  );
  await store.transaction(ALEX, (data) => data.setPreferences({ history: false, external: true }));
  await store.writeChat(STEVE, (chat) => ({ ...chat, history: [{ role: "user", text: "hello" }] }));
  await store.flush();
  await store.close();
  const usage = await FileUsageStore.open({
    path: join(world, "system", "model-usage.json"),
    logger: silentLogger,
  });
  for (const workflow of ["system:question", "system:reasoning"])
    await usage.add({
      playerId: STEVE,
      day,
      workflow,
      failed: false,
      inputTokens: 30,
      outputTokens: 10,
      latencyMillis: 5,
    });
  await usage.flush();
};

describe("system storage migrate --from files --to postgres", () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  it("copies points, check-ins, usage, player records and chat caches, dry run first, counts printed; a second run copies nothing", async () => {
    const url = await cluster.createDatabase("migrate");
    const dataDir = mkdtempSync(join(tmpdir(), "system-migrate-"));
    await writeServerFiles(dataDir);
    mkdirSync(join(dataDir, "config", "system"), { recursive: true });
    writeFileSync(
      join(dataDir, "config", "system", "storage.json"),
      JSON.stringify({ backend: "postgres", url }),
    );
    const args = ["storage", "migrate", "--from", "files", "--to", "postgres", "--data-dir", dataDir];

    const dry = await cli([...args, "--dry-run"]);
    expect(dry).toMatchObject({ code: 0, err: "" });
    expect(dry.out).toBe(
      "would copy: 2 players' points (3 entries), 1 check-in days, 2 usage records, 2 player records, 1 chat caches\n",
    );
    const pool = new pg.Pool({ connectionString: url });
    try {
      const tables = await pool.query("SELECT to_regclass('system_points_entry') AS points");
      expect(tables.rows[0]).toEqual({ points: null });

      const first = await cli(args);
      expect(first).toMatchObject({ code: 0, err: "" });
      expect(first.out.split("\n")[1]).toBe(
        "copied: 3 points entries (0 already there), 1 check-in days (0 already there), 2 usage records (0 already there), 2 player records (0 already there), 1 chat caches (0 already there)",
      );
      const state = new PostgresPlayerState(pool);
      expect(await state.balance(ALEX)).toBe(25);
      expect(await state.balance(STEVE)).toBe(10);
      expect(await state.claimed(STEVE, localDay(Date.now()))).toMatchObject({ streak: 1, total: 1 });
      const quota = await pool.query("SELECT calls, tokens FROM system_model_quota WHERE player_id = $1", [
        STEVE,
      ]);
      expect(quota.rows).toEqual([{ calls: 2, tokens: "80" }]);
      // the player records and chat caches are the network's now: what the players chose and said came along
      const players = new PostgresAgentStore({ pool });
      expect((await players.record(ALEX)).preferences).toEqual({
        history: false,
        external: true,
        speech: false,
      });
      expect(
        await players.read(STEVE, (data) => ModuleData.get(data, checkInStorage(CHECK_IN_OWNER)).toData()),
      ).toMatchObject({ streak: 1, total: 1 });
      expect((await players.readChat(STEVE)).history).toEqual([{ role: "user", text: "hello" }]);

      const second = await cli(args);
      expect(second.out.split("\n")[1]).toBe(
        "copied: 0 points entries (3 already there), 0 check-in days (1 already there), 0 usage records (2 already there), 0 player records (2 already there), 0 chat caches (1 already there)",
      );
      expect(await state.balance(ALEX)).toBe(25);
    } finally {
      await pool.end();
    }
  }, 60_000);

  it("refuses without a database in storage.json, and with wrong flags", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "system-migrate-files-"));
    const refused = await cli([
      "storage",
      "migrate",
      "--from",
      "files",
      "--to",
      "postgres",
      "--data-dir",
      dataDir,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/storage\.json must name the database first/);
    expect((await cli(["storage", "migrate", "--from", "postgres", "--to", "files"])).code).toBe(2);
  });
});
