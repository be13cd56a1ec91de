// FTB quest books: load time of real packs (SNBT parse + book) against JSON.parse of the same data in the same
// run, and `ftb.find` latency (QuestService.find over precomputed search text) against a scan that builds each
// quest's text per query. Packs: the 1.20 sample (test/fixtures/ftbquests/ftbquests-sample: 499 quests, inline Chinese) and the three fixture packs together.
// Run: npm run bench -- quests
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadQuestBook } from "../src/data/quests/quest-loader.js";
import { parseSnbt } from "../src/data/quests/snbt.js";
import { FileAgentStore } from "../src/data/store/file-agent-store.js";
import { ItemCatalog } from "../src/game/data/item-catalog.js";
import { MemoryGameBridge } from "../src/game/tools/memory-game-bridge.js";
import { questProgressStorage } from "../src/module/builtin/quests/quest-progress.js";
import { QuestService } from "../src/module/builtin/quests/quest-service.js";
import { observe, QuestState } from "../src/module/builtin/quests/quest-state.js";
import { Identifier } from "../src/util/identifier.js";

const SAMPLE = join(import.meta.dirname, "../test/fixtures/ftbquests/ftbquests-sample");
const FIXTURES = join(import.meta.dirname, "../test/fixtures/ftbquests");

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};

/** One folder with the sample's chapters and every fixture pack's chapters, tables and lang files (≈ 590 quests). */
const combined = (): string => {
  const folder = mkdtempSync(join(tmpdir(), "quests-bench-"));
  cpSync(SAMPLE, folder, { recursive: true });
  for (const pack of ["create-applied-machine", "flywheel-new-continent", "garden-of-glass-qe"])
    for (const sub of ["chapters", "reward_tables", "lang"])
      try {
        for (const file of readdirSync(join(FIXTURES, pack, sub)))
          cpSync(join(FIXTURES, pack, sub, file), join(folder, sub, `${pack}-${file}`));
      } catch {
        // a pack without that folder
      }
  return folder;
};

const timeLoad = (folder: string, runs: number) => {
  const times: number[] = [];
  let quests = 0;
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    quests = loadQuestBook(folder).book.quests.size;
    times.push(performance.now() - start);
  }
  return { quests, p50: percentile(times, 50), max: Math.max(...times), first: times[0] as number };
};

/** The same files as JSON text, parsed with JSON.parse: the floor any text format's load could reach. */
const jsonPeer = (folder: string, runs: number) => {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir, { withFileTypes: true }))
      if (name.isDirectory()) walk(join(dir, name.name));
      else if (name.name.endsWith(".snbt")) {
        const value = parseSnbt(readFileSync(join(dir, name.name), "utf8"));
        texts.push(
          JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? item.toString() : item)),
        );
      }
  };
  walk(folder);
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    for (const text of texts) JSON.parse(text);
    times.push(performance.now() - start);
  }
  return percentile(times, 50);
};

const folder = combined();
console.log(`load average ${loadavg()[0]?.toFixed(2)}`);
for (const [name, path] of [
  ["1.20 sample", SAMPLE],
  ["sample + fixtures", folder],
] as const) {
  const load = timeLoad(path, 20);
  const peer = jsonPeer(path, 20);
  console.log(
    `${name}: ${load.quests} quests, load first ${load.first.toFixed(1)} ms, p50 ${load.p50.toFixed(1)} ms, max ${load.max.toFixed(1)} ms; JSON.parse of the same data p50 ${peer.toFixed(1)} ms (${(load.p50 / peer).toFixed(1)}× of it)`,
  );
}

const { book } = loadQuestBook(folder);
const world = mkdtempSync(join(tmpdir(), "quests-bench-world-"));
const service = new QuestService({
  book,
  store: new FileAgentStore({ world }),
  storage: questProgressStorage(Identifier.parse("system:ftb_quests")),
  bridge: new MemoryGameBridge(),
  catalog: ItemCatalog.forVersion("1.21.4"),
  now: () => 0,
  gameEvents: { emit: async () => {} },
});
const state = new QuestState(book, new Set(), observe(undefined));
const QUERIES = [
  "钢",
  "steam",
  "蒸汽",
  "machine",
  "bread",
  "钻石",
  "电路",
  "turbine",
  "oak log",
  "女仆",
  "不存在的任务",
  "ae2",
];
const scan = (text: string): number => {
  const words = text.toLowerCase().split(/\s+/u);
  let found = 0;
  for (const quest of book.quests.values()) {
    const haystack = [book.searchText(quest), quest.id].join("\n").toLowerCase();
    if (words.every((word) => haystack.includes(word)) && state.visible(quest)) found++;
  }
  return found;
};
const measure = (work: (text: string) => unknown) => {
  const times: number[] = [];
  for (let round = 0; round < 50; round++)
    for (const query of QUERIES) {
      const start = performance.now();
      work(query);
      times.push(performance.now() - start);
    }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
};
measure((text) => service.find("bench", state, text, "en_us"));
const find = measure((text) => service.find("bench", state, text, "en_us"));
const naive = measure(scan);
console.log(
  `ftb.find over ${book.quests.size} quests, ${QUERIES.length * 50} queries: p50 ${(find.p50 * 1000).toFixed(0)} µs, p99 ${(find.p99 * 1000).toFixed(0)} µs; per-query scan p50 ${(naive.p50 * 1000).toFixed(0)} µs, p99 ${(naive.p99 * 1000).toFixed(0)} µs (${(naive.p99 / find.p99).toFixed(1)}× at p99)`,
);
rmSync(folder, { recursive: true, force: true });
rmSync(world, { recursive: true, force: true });
