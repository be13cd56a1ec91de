// Knowledge search on both backends of the knowledge store: the embedded SQLite file and the network's
// PostgreSQL (a throw-away cluster from Debian's postgresql, fsync on), loaded with the same generated entries,
// asked the same queries. Prints p50/p95 per backend and the PostgreSQL/SQLite ratio, and checks that both
// return the same hits.
// Run: npm run bench -- storage-knowledge   (STORAGE_KNOWLEDGE_ENTRIES=100000 by default)
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { KnowledgeDatabase } from "../src/data/knowledge/knowledge-database.js";
import type { KnowledgeDraft } from "../src/data/knowledge/knowledge-entry.js";
import type { KeyedDraft, KnowledgeStore } from "../src/data/knowledge/knowledge-store.js";
import { KNOWLEDGE_MIGRATIONS } from "../src/data/knowledge/postgres/knowledge-migrations.js";
import { PostgresKnowledgeStore } from "../src/data/knowledge/postgres/postgres-knowledge-store.js";
import { SqliteKnowledgeStore } from "../src/data/knowledge/sqlite-knowledge-store.js";
import { openPostgresDatabase } from "../src/data/network/postgres-database.js";
import { silentLogger } from "../src/util/logger.js";
import { startPostgresCluster } from "../test/support/postgres-cluster.js";
import { knowledgeCorpus, percentile } from "./_knowledge-corpus.js";

const corpus = knowledgeCorpus(11);

const QUERIES = [
  "钻石",
  "镐",
  "下界合金",
  "村民交易",
  "附魔 铁砧",
  "netherite",
  "villager trade",
  "diamond pickaxe",
  "spawn rules",
  "末影龙 鞘翅",
  "redstone",
  "剑",
];
const PLAYER = "00000000-0000-4000-8000-000000000001";
const BATCH = 1_000;

const load = async (store: KnowledgeStore, drafts: readonly KeyedDraft[]): Promise<number> => {
  const start = Date.now();
  for (let at = 0; at < drafts.length; at += BATCH) await store.upsertAll(drafts.slice(at, at + BATCH));
  return Date.now() - start;
};

const measure = async (
  store: KnowledgeStore,
  rounds: number,
): Promise<{ all: number[]; hits: Map<string, string> }> => {
  const hits = new Map<string, string>();
  for (const query of QUERIES) {
    const found = await store.search({ query, playerId: PLAYER, limit: 5 });
    hits.set(query, found.map((hit) => hit.entry.id).join(","));
  }
  const all: number[] = [];
  for (let round = 0; round < rounds; round++)
    for (const query of QUERIES) {
      const start = process.hrtime.bigint();
      await store.search({ query, playerId: PLAYER, limit: 5 });
      all.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  return { all, hits };
};

const main = async (): Promise<void> => {
  const entries = Number(process.env.STORAGE_KNOWLEDGE_ENTRIES ?? 100_000);
  const drafts: KeyedDraft[] = Array.from({ length: entries }, (_, index): KeyedDraft => {
    const draft: KnowledgeDraft = {
      title: corpus.title(index),
      body: corpus.body(),
      source: "file",
      ...(index % 20 === 0 ? { owner: index % 40 === 0 ? PLAYER : "someone-else" } : {}),
    };
    return { ...draft, ref: `bench/${index}` };
  });
  const folder = mkdtempSync(join(tmpdir(), "storage-knowledge-"));
  const cluster = await startPostgresCluster({ durable: true });
  const now = () => 1_700_000_000_000;
  const sqlite = new SqliteKnowledgeStore(
    KnowledgeDatabase.open(join(folder, "knowledge.sqlite"), { now }),
    folder,
  );
  const database = await openPostgresDatabase({
    config: { backend: "postgres", url: await cluster.createDatabase("bench"), poolSize: 4 },
    dataDir: folder,
    environment: {},
    migrations: KNOWLEDGE_MIGRATIONS,
    logger: silentLogger,
  });
  const postgres = new PostgresKnowledgeStore(database.pool, { now });
  try {
    const sqliteLoad = await load(sqlite, drafts);
    const postgresLoad = await load(postgres, drafts);
    await database.pool.query("VACUUM ANALYZE");
    const rounds = 20;
    const embedded = await measure(sqlite, rounds);
    const shared = await measure(postgres, rounds);
    const same = QUERIES.filter((query) => embedded.hits.get(query) === shared.hits.get(query)).length;
    console.log(
      `${entries.toLocaleString("en")} entries; loaded SQLite in ${sqliteLoad} ms, PostgreSQL in ${postgresLoad} ms; ${embedded.all.length} searches each; load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(" ")}`,
    );
    for (const [name, result] of [
      ["SQLite    ", embedded],
      ["PostgreSQL", shared],
    ] as const)
      console.log(
        `  ${name}  p50 ${percentile(result.all, 0.5).toFixed(2)} ms  p95 ${percentile(result.all, 0.95).toFixed(2)} ms  p99 ${percentile(result.all, 0.99).toFixed(2)} ms`,
      );
    console.log(
      `  PostgreSQL / SQLite  p50 ${(percentile(shared.all, 0.5) / percentile(embedded.all, 0.5)).toFixed(1)}x  p95 ${(percentile(shared.all, 0.95) / percentile(embedded.all, 0.95)).toFixed(1)}x`,
    );
    console.log(`  same hits on both: ${same}/${QUERIES.length} queries`);
  } finally {
    await sqlite.close();
    await postgres.close();
    await database.close();
    await cluster.stop();
    rmSync(folder, { recursive: true, force: true });
  }
};

await main();
