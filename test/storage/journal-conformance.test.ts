import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
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
