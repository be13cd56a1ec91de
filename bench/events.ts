/**
 * Game events through the assembled assistant (the same `AssistantServer.create` that `npm start` uses, over the
 * in-memory game): 32 online players each report kills. A matching kill starts a durable event task through the
 * admin's rule (`system:points_bonus`, repeat always: journal records, then a ledger credit in the player's file);
 * a kill no rule matches is only matched against the rules. Baselines in the same run: one raw write + fsync +
 * rename of a small file per event (what a durable effect costs at least), and the non-matching events.
 * Run: `npm run bench -- events` (or `node --import tsx bench/events.ts`).
 */
import { mkdir, mkdtemp, open, rename, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ModuleData } from "../src/agent/storage/player-data.js";
import { AssistantServer } from "../src/assistant/assistant-server.js";
import { systemClock } from "../src/game/context-types.js";
import { MemoryGameBridge } from "../src/game/tools/memory-game-bridge.js";
import { pointsLedgerStorage } from "../src/module/builtin/storage/points-ledger.js";
import { silentLogger } from "../src/util/logger.js";

const PLAYERS = 32;
const BATCHES = Number(process.env.BENCH_BATCHES ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const playerId = (index: number): string => `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`;

const folder = await mkdtemp(join(tmpdir(), "bench-events-"));
try {
  console.log(`load average ${loadavg()[0]?.toFixed(2)}`);
  const configDir = join(folder, "config", "system");
  await mkdir(configDir, { recursive: true });
  await writeFile(
    join(configDir, "advancements.json"),
    JSON.stringify({
      rules: [
        {
          id: "bounty",
          trigger: { event: "system:kill", conditions: { entity: "minecraft:zombie" } },
          action: { workflow: "system:points_bonus", input: { points: 1 } },
          repeat: "always",
          enabled: true,
        },
      ],
    }),
  );
  const bridge = new MemoryGameBridge();
  const assistant = await AssistantServer.create({
    clock: systemClock(),
    paths: { dataDir: folder, world: join(folder, "world"), packRoots: [] },
    bridge,
    logger: silentLogger,
    environment: {},
    extraTypes: [],
  });
  for (let index = 0; index < PLAYERS; index++) {
    const uuid = playerId(index);
    bridge.join(uuid, `P${index}`);
    await assistant.join({ uuid, name: `P${index}`, locale: "en_us", opLevel: 0 });
  }
  const balance = (index: number): Promise<number> =>
    assistant.infrastructure.store.read(playerId(index), (data) =>
      ModuleData.get(data, pointsLedgerStorage).balance(),
    );
  let kills = 0;
  /** `batches` kills per player, all players at once; matching kills are counted once their credit is stored. */
  const run = async (entity: string, batches: number): Promise<number> => {
    const started = performance.now();
    const before = await Promise.all(Array.from({ length: PLAYERS }, (_, index) => balance(index)));
    for (let batch = 0; batch < batches; batch++)
      await Promise.all(
        Array.from({ length: PLAYERS }, (_, index) =>
          assistant.killed(playerId(index), entity, `${entity}-${kills++}`),
        ),
      );
    if (entity === "minecraft:zombie")
      for (let index = 0; index < PLAYERS; index++)
        while ((await balance(index)) < (before[index] ?? 0) + batches)
          await new Promise((resolve) => setTimeout(resolve, 2));
    return (batches * PLAYERS) / ((performance.now() - started) / 1000);
  };
  let written = 0;
  const raw = async (batches: number): Promise<number> => {
    const started = performance.now();
    for (let batch = 0; batch < batches; batch++)
      await Promise.all(
        Array.from({ length: PLAYERS }, async (_, index) => {
          const path = join(folder, `raw-${index}.json`);
          const handle = await open(`${path}.tmp`, "w");
          await handle.writeFile(JSON.stringify({ player: playerId(index), event: written++ }));
          await handle.sync();
          await handle.close();
          await rename(`${path}.tmp`, path);
        }),
      );
    return (batches * PLAYERS) / ((performance.now() - started) / 1000);
  };
  await run("minecraft:zombie", 2);
  await run("minecraft:skeleton", 2);
  await raw(2);
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // interleaved, so that background load hits every side alike
    const baseline = await raw(BATCHES);
    const matching = await run("minecraft:zombie", BATCHES);
    const unmatched = await run("minecraft:skeleton", BATCHES * 10);
    console.log(`round ${round + 1}`);
    console.log(`  raw write+fsync+rename per event     ${baseline.toFixed(0).padStart(8)}/s`);
    console.log(`  kills paid by a rule (durable task)  ${matching.toFixed(0).padStart(8)}/s`);
    console.log(`  kills no rule matches                ${unmatched.toFixed(0).padStart(8)}/s`);
    ratios.push(matching / baseline);
  }
  const sorted = [...ratios].sort((left, right) => left - right);
  console.log(
    `median of rounds: rule-paid kills / raw durable writes = ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(2)}× (rounds ${ratios.map((ratio) => ratio.toFixed(2)).join(", ")}; ${PLAYERS} players)`,
  );
  await assistant.close();
} finally {
  await rm(folder, { recursive: true, force: true });
}
