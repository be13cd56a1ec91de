// Routing quality and cost of the shipped assembly (built-in modules, built-in data pack, no model):
// (a) the labelled dev set test/fixtures/routing-dev.tsv routed exactly as `npx system route fit` does, with
//     recall, precision and wrong direct routes per module at the shipped thresholds;
// (b) the bytes of one model-router call for the built-in catalog (system prompt + user JSON, as the
//     OpenAI-compatible client sends them) for a short request and a 2,000-character Chinese message, against
//     the 2 KB target;
// (c) local routing latency (command parse, semantic match, no model) over the dev set texts.
// Run: npm run bench -- routing-quality

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { modelInputBytes } from "../src/agent/execution/budget-counters.js";
import { PromptNames } from "../src/agent/model/prompt-source.js";
import { ModelRouter } from "../src/agent/routing/model-router.js";
import type { RoutingPlayer } from "../src/agent/routing/routing-player.js";
import { AssistantServer } from "../src/assistant/assistant-server.js";
import { RouteSession } from "../src/assistant/route-cli.js";
import { evaluate, parseLabelled, type RoutedLine } from "../src/assistant/route-fit.js";
import { systemClock } from "../src/game/context-types.js";
import { MemoryGameBridge } from "../src/game/tools/memory-game-bridge.js";
import { silentLogger } from "../src/util/logger.js";
import { offlineUuid } from "../src/util/offline-uuid.js";

const DEV_SET = "test/fixtures/routing-dev.tsv";
/** The quest book the dev set's quest lines name (as `route fit … --quests` is given). */
const QUESTS = "test/fixtures/ftbquests/system-basics";
const TARGET_BYTES = 2_048;
const LATENCY_ROUNDS = 5;
const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;
const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

const labelled = parseLabelled(await readFile(DEV_SET, "utf8"));

// (a) the dev set, routed as `route fit` routes it (the same session, the same measurements)
const session = await RouteSession.open({
  words: [],
  stdin: false,
  player: "Player",
  locale: "en_us",
  opLevel: 0,
  packs: [],
  dataDir: undefined,
  quests: resolve(QUESTS),
});
let thresholds: ReturnType<RouteSession["thresholds"]>;
const routed: RoutedLine[] = [];
try {
  for (const line of labelled) routed.push(await session.measure(line.text));
  thresholds = session.thresholds();
} finally {
  await session.close();
}
const quality = evaluate(labelled, routed, thresholds);
console.log(
  `(a) ${labelled.length} labelled lines (${quality.expectedDirect} expected direct) at the shipped thresholds: ` +
    `minSimilarity ${thresholds.minSimilarity}, minMargin ${thresholds.minMargin}, minCoverage ${thresholds.minCoverage}`,
);
console.table([
  ...quality.modules.map((figures) => ({
    module: figures.module,
    precision: percent(figures.precision),
    recall: `${percent(figures.recall)} (${figures.correct}/${figures.expected})`,
    "wrong direct": figures.wrong,
  })),
  {
    module: "all",
    precision: percent(quality.correct / Math.max(1, quality.correct + quality.wrong)),
    recall: `${percent(quality.recall)} (${quality.correct}/${quality.expectedDirect})`,
    "wrong direct": quality.wrong,
  },
]);
for (const mistake of quality.mistakes)
  console.log(
    `  wrong: ${JSON.stringify(mistake.text)} expected ${mistake.expected}, routed ${mistake.routed}`,
  );

// (b) and (c) on one assembled server with one joined player, as the route CLI assembles it
const folder = await mkdtemp(join(tmpdir(), "system-bench-routing-"));
const bridge = new MemoryGameBridge();
const server = await AssistantServer.create({
  clock: systemClock(),
  paths: { dataDir: folder, world: join(folder, "world"), packRoots: [] },
  bridge,
  logger: silentLogger,
  environment: {},
});
try {
  const uuid = offlineUuid("Player");
  bridge.join(uuid, "Player");
  await server.join({ uuid, name: "Player", locale: "en_us", opLevel: 0 });
  const snapshot = server.permissions.snapshot(uuid);
  const player = (locale: string): RoutingPlayer => ({
    playerId: uuid,
    permissionLevel: snapshot.opLevel,
    features: snapshot.features,
    locale,
    aiEnabled: false,
    generation: 0,
  });
  const registry = server.infrastructure.engine.modules();
  const modules = registry.values().filter((module) => server.router.available(player("en_us"), module));
  const router = new ModelRouter({
    modules: registry,
    model: undefined,
    system: () => server.infrastructure.prompts.get(PromptNames.ROUTER),
  });
  const chinese = "请问在这个服务器里怎么快速找到钻石，附近有没有村民可以交易附魔书？"
    .repeat(70)
    .slice(0, 2_000);
  const cases = [
    { case: "short request, en_us catalog", text: "where can I find diamonds", locale: "en_us" },
    { case: "short request, zh_cn catalog", text: "钻石在哪里找", locale: "zh_cn" },
    { case: "2,000-character Chinese message", text: chinese, locale: "zh_cn" },
  ];
  console.log(
    `\n(b) model-router request for the built-in catalog (${router.catalog(modules).length} capabilities + clarify), target ${TARGET_BYTES} bytes`,
  );
  console.table(
    cases.map(({ case: name, text, locale }) => {
      const request = router.request({ text, modules, locale });
      const bytes = modelInputBytes(request);
      return {
        case: name,
        "text chars": [...text].length,
        "system bytes": Buffer.byteLength(request.system, "utf8"),
        "user bytes": Buffer.byteLength(JSON.stringify(request.user), "utf8"),
        "total bytes": bytes,
        "total / 2 KB": (bytes / TARGET_BYTES).toFixed(3),
      };
    }),
  );

  // (c) local routing latency: the whole hybrid route without a model, every dev text, a few rounds
  const texts = labelled.map((line) => line.text);
  const routing = player("en_us");
  for (const [index, text] of texts.entries())
    await server.router.route({ requestId: `warm${index}`, text, player: routing });
  (globalThis as { gc?: () => void }).gc?.();
  const times: number[] = [];
  for (let round = 0; round < LATENCY_ROUNDS; round++)
    for (const [index, text] of texts.entries()) {
      const start = process.hrtime.bigint();
      await server.router.route({ requestId: `r${round}/${index}`, text, player: routing });
      times.push(Number(process.hrtime.bigint() - start) / 1000);
    }
  times.sort((left, right) => left - right);
  console.log(
    `\n(c) local routing latency over ${texts.length} dev texts × ${LATENCY_ROUNDS} rounds: ` +
      `p50 ${percentile(times, 50).toFixed(1)} µs, p99 ${percentile(times, 99).toFixed(1)} µs ` +
      `(load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(" / ")} on ${cpus().length} cores)`,
  );
} finally {
  await server.close();
  await rm(folder, { recursive: true, force: true });
}
