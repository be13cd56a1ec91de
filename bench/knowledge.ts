// Knowledge retrieval latency: KnowledgeDatabase.search (the short-term index of CJK 1–2 character windows and
// stemmed words, ranked by bm25 inside SQLite; FTS5 trigram for substrings) against a plain LIKE scan over the
// same table in the same run, at 10,000 and 100,000 entries.
// Run: npm run bench -- knowledge   (KNOWLEDGE_BENCH_ENTRIES=100000 for one size; a comma list for several)
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { KnowledgeDatabase } from "../src/data/knowledge/knowledge-database.js";
import { queryTerms } from "../src/data/knowledge/knowledge-terms.js";
import { knowledgeCorpus, percentile } from "./_knowledge-corpus.js";

const corpus = knowledgeCorpus(7);

const QUERIES = [
  "钻石",
  "下界合金",
  "村民交易",
  "附魔 铁砧",
  "netherite",
  "villager trade",
  "diamond pickaxe",
  "spawn rules",
  "末影龙 鞘翅",
  "redstone",
];
const PLAYER = "00000000-0000-4000-8000-000000000001";

const time = (work: () => unknown): number => {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e6;
};

const run = (entries: number): void => {
  const folder = mkdtempSync(join(tmpdir(), "knowledge-bench-"));
  const path = join(folder, "knowledge.sqlite");
  const database = KnowledgeDatabase.open(path);
  const loadStart = Date.now();
  database.transaction(() => {
    for (let index = 0; index < entries; index++)
      database.add({
        title: corpus.title(index),
        body: corpus.body(),
        source: "file",
        ...(index % 20 === 0 ? { owner: index % 40 === 0 ? PLAYER : "someone-else" } : {}),
      });
  });
  const loadMillis = Date.now() - loadStart;
  const raw = new Database(path, { readonly: true });
  const like = (query: string): unknown[] => {
    const terms = queryTerms(query);
    const where = terms.map(() => "(title LIKE ? OR body LIKE ?)").join(" AND ");
    return raw
      .prepare(
        `SELECT id, title, body FROM "system:knowledge" WHERE (owner IS NULL OR owner = ?) AND ${where} ORDER BY id DESC LIMIT 5`,
      )
      .all(PLAYER, ...terms.flatMap((term) => [`%${term}%`, `%${term}%`]));
  };
  // warm up both paths
  for (const query of QUERIES) {
    database.search({ query, playerId: PLAYER, limit: 5 });
    like(query);
  }
  const rounds = entries >= 100_000 ? 10 : 40;
  const fts: number[] = [];
  const scan: number[] = [];
  const byQuery: string[] = [];
  for (const query of QUERIES) {
    const ftsQuery: number[] = [];
    const scanQuery: number[] = [];
    for (let round = 0; round < rounds; round++) {
      ftsQuery.push(time(() => database.search({ query, playerId: PLAYER, limit: 5 })));
      scanQuery.push(time(() => like(query)));
    }
    fts.push(...ftsQuery);
    scan.push(...scanQuery);
    byQuery.push(
      `    ${query.padEnd(16)} search p50 ${percentile(ftsQuery, 0.5).toFixed(2)} ms   LIKE p50 ${percentile(scanQuery, 0.5).toFixed(2)} ms`,
    );
  }
  raw.close();
  database.close();
  rmSync(folder, { recursive: true, force: true });
  const ratio = (fraction: number): string =>
    (percentile(scan, fraction) / percentile(fts, fraction)).toFixed(1);
  console.log(
    `${entries.toLocaleString("en")} entries (loaded in ${loadMillis} ms), ${fts.length} queries per method, load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")}`,
  );
  console.log(
    `  search (word/bigram + trigram)  p50 ${percentile(fts, 0.5).toFixed(2)} ms  p99 ${percentile(fts, 0.99).toFixed(2)} ms`,
  );
  console.log(
    `  plain LIKE scan                 p50 ${percentile(scan, 0.5).toFixed(2)} ms  p99 ${percentile(scan, 0.99).toFixed(2)} ms`,
  );
  console.log(`  LIKE / search ratio             p50 ${ratio(0.5)}x  p99 ${ratio(0.99)}x`);
  for (const line of byQuery) console.log(line);
};

const sizes = (process.env.KNOWLEDGE_BENCH_ENTRIES ?? "10000,100000")
  .split(",")
  .map((size) => Number.parseInt(size.replaceAll("_", ""), 10))
  .filter((size) => Number.isInteger(size) && size > 0);
for (const entries of sizes) run(entries);
