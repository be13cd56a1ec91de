import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COORDINATION_MIGRATIONS } from "../../src/data/network/coordination-migrations.js";
import { PostgresAgentJournal } from "../../src/data/network/postgres-agent-journal.js";
import { migrate } from "../../src/data/network/postgres-migrations.js";
import { FileAgentJournal } from "../../src/data/store/file-agent-journal.js";
import { silentLogger } from "../../src/util/logger.js";
import { describeJournalConformance } from "../support/journal-conformance.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describeJournalConformance("FileAgentJournal", () => {
  let folder = "";
  return {
    async fresh() {
      folder = await mkdtemp(join(tmpdir(), "journal-conformance-"));
      folders.push(folder);
      return FileAgentJournal.open({ folder });
    },
    reopen: () => FileAgentJournal.open({ folder }),
  };
});

let cluster: PostgresCluster;
const pools: pg.Pool[] = [];
beforeAll(async () => {
  cluster = await startPostgresCluster();
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await cluster.stop();
});

let databases = 0;
describeJournalConformance("PostgresAgentJournal", () => {
  let url = "";
  const open = async () => {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pools.push(pool);
    return PostgresAgentJournal.open({ pool });
  };
  return {
    async fresh() {
      url = await cluster.createDatabase(`journal_${++databases}`);
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      await migrate(pool, COORDINATION_MIGRATIONS, silentLogger);
      await pool.end();
      return open();
    },
    reopen: open,
    second: open,
  };
});

describe("PostgresAgentJournal pruning", () => {
  it("deletes the oldest finished entries over the limits, never what recovery or an admin still needs", async () => {
    const url = `${await cluster.createDatabase("journal_prune")}`;
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pools.push(pool);
    await migrate(pool, COORDINATION_MIGRATIONS, silentLogger);
    let clock = 0;
    const options = { pool, now: () => ++clock, keep: { steps: 1, events: 1 } };
    const journal = await PostgresAgentJournal.open(options);
    const task = (id: string) => ({
      id,
      type: "test:reward",
      input: {},
      playerId: "p1",
      policy: {},
      state: "QUEUED" as const,
      attempts: 0,
    });
    for (const id of ["old", "held", "open", "new"]) await journal.putEvent(task(id));
    await journal.updateEvent("old", { state: "SUCCEEDED" });
    await journal.updateEvent("held", { state: "UNCONFIRMED" });
    await journal.updateEvent("new", { state: "FAILED" });
    await journal.appendStep("event:open/give", "test:give");
    await journal.completeStep("event:open/give", { ok: 1 });
    for (const key of ["r1/a", "r2/a", "r3/a"]) {
      await journal.appendStep(key, "test:pay");
      await journal.completeStep(key, { ok: 1 });
    }
    await journal.appendStep("r4/a", "test:pay");
    expect(await journal.prune()).toBe(3);
    const reopened = await PostgresAgentJournal.open(options);
    for (const each of [journal, reopened]) {
      expect(each.event("old")).toBeUndefined();
      expect(["held", "open", "new"].map((id) => each.event(id)?.state)).toEqual([
        "UNCONFIRMED",
        "QUEUED",
        "FAILED",
      ]);
      expect(["r1/a", "r2/a", "r3/a", "r4/a"].map((key) => each.step(key)?.state)).toEqual([
        undefined,
        undefined,
        "DONE",
        "RUNNING",
      ]);
      expect(each.step("event:open/give")?.state).toBe("DONE");
    }
  });
});
