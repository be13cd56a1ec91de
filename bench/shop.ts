/**
 * Confirmed shop purchases per second with 32 concurrent players against a raw baseline in the same run. A
 * purchase is what a delivered order writes durably to the player's file in the real FileAgentStore: the charge
 * transaction (ledger debit + order PAID, one atomic write) and the delivery commit (order DELIVERED, a second
 * write). The baseline: per purchase one write + fsync + rename of a small JSON file per player. The journal's
 * event and step records of a purchase are not counted here (bench/journal.ts measures them).
 * Run: `npm run bench -- shop` (or `node --import tsx bench/shop.ts`).
 */
import { mkdtemp, open, rename, rm, stat } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ModuleData } from "../src/agent/storage/player-data.js";
import { FileAgentStore } from "../src/data/store/file-agent-store.js";
import { ShopCatalog, type ShopEntry } from "../src/module/builtin/shop/shop-catalog.js";
import { ShopCommerce } from "../src/module/builtin/shop/shop-commerce.js";
import { shopOrdersStorage } from "../src/module/builtin/shop/shop-orders.js";
import { ShopStock } from "../src/module/builtin/shop/shop-stock.js";
import { PlayerFilePoints } from "../src/module/builtin/storage/player-file-points.js";
import { pointsLedgerStorage } from "../src/module/builtin/storage/points-ledger.js";
import { Identifier } from "../src/util/identifier.js";
import { silentLogger } from "../src/util/logger.js";

const PLAYERS = 32;
const BATCHES = Number(process.env.BENCH_BATCHES ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Purchases per player before measuring: the files reach their steady size (200 orders, 256 ledger entries). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 8);

const ENTRY: ShopEntry = { id: "bread", item: "minecraft:bread", count: 1, price: 2 };
const playerId = (index: number): string => `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`;

interface Measure {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

/** `batches` rounds of one purchase per player, all players at once. */
const measure = async (batches: number, purchase: (player: number) => Promise<void>): Promise<Measure> => {
  const latencies: number[] = [];
  const started = performance.now();
  for (let batch = 0; batch < batches; batch++)
    await Promise.all(
      Array.from({ length: PLAYERS }, async (_, player) => {
        const begin = performance.now();
        await purchase(player);
        latencies.push(performance.now() - begin);
      }),
    );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((left, right) => left - right);
  const at = (quantile: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * quantile))] ?? 0;
  return { perSecond: (batches * PLAYERS) / seconds, p50: at(0.5), p99: at(0.99) };
};

const median = (values: number[]): number =>
  [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? 0;
const show = (label: string, value: Measure): string =>
  `${label.padEnd(36)} ${value.perSecond.toFixed(0).padStart(7)}/s  p50 ${value.p50.toFixed(2)} ms  p99 ${value.p99.toFixed(2)} ms`;

const folder = await mkdtemp(join(tmpdir(), "bench-shop-"));
try {
  console.log(`load average ${loadavg()[0]?.toFixed(2)}`);
  const store = new FileAgentStore({ world: join(folder, "world") });
  const orders = shopOrdersStorage(Identifier.parse("system:shop"));
  const clock = { now: () => Date.now(), timeZone: "UTC" };
  const commerce = new ShopCommerce({
    catalog: new ShopCatalog({ pack: [ENTRY], path: undefined, logger: silentLogger, items: undefined }),
    stock: new ShopStock(undefined, silentLogger),
    store,
    points: new PlayerFilePoints(store),
    orders,
    clock,
    ready: Promise.resolve(),
  });
  for (let player = 0; player < PLAYERS; player++)
    await store.transaction(playerId(player), (data) =>
      ModuleData.get(data, pointsLedgerStorage).credit("grant", 1_000_000_000, "bench", clock.now()),
    );
  let next = 0;
  let rejected = 0;
  /** One confirmed purchase, delivered: the charge transaction, then the DELIVERED commit. */
  const purchase = async (player: number): Promise<void> => {
    const id = playerId(player);
    const orderId = `shop/bench-${next++}`;
    const charged = await commerce.charge(id, orderId, { entry: ENTRY, count: 1, day: commerce.today() });
    if (charged !== "PAID") rejected++;
    await store.transaction(id, (data) => ModuleData.get(data, orders).settle(orderId, "DELIVERED"));
  };
  const raw = async (player: number): Promise<void> => {
    const path = join(folder, `raw-${player}.json`);
    const temp = `${path}.tmp`;
    const handle = await open(temp, "w");
    await handle.writeFile(
      JSON.stringify({ player: playerId(player), balance: next++, order: `shop/raw-${next}` }),
    );
    await handle.sync();
    await handle.close();
    await rename(temp, path);
  };
  await measure(WARMUP, purchase);
  await measure(2, raw);
  const playerFile = (await stat(join(folder, "world", "system", "players", `${playerId(0)}.dat`))).size;
  const ratios: number[] = [];
  const totals = { raw: 0, shop: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved rounds, so that background load hits both sides alike.
    const baseline = await measure(BATCHES, raw);
    const shop = await measure(BATCHES, purchase);
    console.log(`round ${round + 1}`);
    console.log(show(`  raw write+fsync+rename, ${PLAYERS} players`, baseline));
    console.log(show(`  shop purchases, ${PLAYERS} players`, shop));
    totals.raw += (BATCHES * PLAYERS) / baseline.perSecond;
    totals.shop += (BATCHES * PLAYERS) / shop.perSecond;
    ratios.push(shop.perSecond / baseline.perSecond);
  }
  const purchases = ROUNDS * BATCHES * PLAYERS;
  console.log(
    `all rounds together: ${(purchases / totals.shop).toFixed(0)} purchases/s against ${(purchases / totals.raw).toFixed(0)} raw writes/s = ${(totals.raw / totals.shop).toFixed(2)}× (shop/raw throughput; a purchase is 2 atomic gzip NBT writes of a ${(playerFile / 1024).toFixed(1)} KiB player file)`,
  );
  console.log(
    `median of rounds: shop/raw = ${median(ratios).toFixed(2)}× (rounds ${ratios.map((ratio) => ratio.toFixed(2)).join(", ")})${rejected === 0 ? "" : `; ${rejected} purchases REJECTED`}`,
  );
  await store.close();
} finally {
  await rm(folder, { recursive: true, force: true });
}
