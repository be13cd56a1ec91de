import { AsyncLocalStorage } from "node:async_hooks";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AgentLifecycles } from "../../../agent/agent-lifecycle.js";
import type { AgentResult } from "../../../agent/agent-result.js";
import { CardRegistry } from "../../../agent/card/card-registry.js";
import { AgentEngine, type ExecutionRequest } from "../../../agent/execution/agent-engine.js";
import { BoundedPool } from "../../../agent/execution/bounded-pool.js";
import { EventExecutor } from "../../../agent/execution/event-executor.js";
import { EventRules } from "../../../agent/execution/event-rules.js";
import type { AgentAction } from "../../../agent/module/action-type.js";
import { ServiceContext } from "../../../agent/module/context-type.js";
import { JournalStepRunner } from "../../../agent/storage/journal-step-runner.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import { FileAgentJournal } from "../../../data/store/file-agent-journal.js";
import { FileAgentStore } from "../../../data/store/file-agent-store.js";
import { GameContextTypes } from "../../../game/context-types.js";
import type { GameBridge, GiveOutcome, GiveStack } from "../../../game/game-bridge.js";
import { GAME_EVENTS } from "../../../game/game-events.js";
import { MemoryGameBridge } from "../../../game/tools/memory-game-bridge.js";
import { Identifier } from "../../../util/identifier.js";
import { MemoryLogger } from "../../../util/logger.js";
import { Registry } from "../../../util/registry.js";
import { FeatureSwitches } from "../../feature-switches.js";
import { ModuleManager } from "../../module-manager.js";
import type { AnyServerModuleType } from "../../server-module.js";
import { SERVER_PATHS } from "../../server-paths.js";
import { SystemModuleTags } from "../../system-module-tags.js";
import { pointsLedgerStorage } from "../storage/points-ledger.js";
import type { ShopEntry } from "./shop-catalog.js";
import { SHOP_FEATURE } from "./shop-feature.js";
import { SHOP_CONFIRM_ACTION, SHOP_QUOTE_ACTION } from "./shop-modules.js";
import { type ShopOrder, shopOrdersStorage } from "./shop-orders.js";
import { SHOP_PURCHASE_EVENT } from "./shop-purchase.js";

/**
 * A model-based test of the whole purchase path: the real feature (quote and confirm modules, the purchase event
 * module, ShopCommerce, ShopOrders, ShopStock, the points ledger) in a real AgentEngine whose write steps go through
 * the file journal, a real EventExecutor, a FileAgentStore in a temp world, and a MemoryGameBridge whose gives are
 * scripted per player (success, no room → refund, the player left → requeued until they join again). Commands:
 * quotes, confirms clicked 1-3 times at once (Promise.all), confirms of stale quotes (after a restart), leave/join,
 * waiting for the events, and crashes: at any point, with purchases still running, the store and the journal stop
 * answering (every later call of the old process hangs forever, as if the process died there), then a new process
 * opens the same folder and resumes its journal. Invariants after every command and at the end (all online, idle).
 */

const PLAYERS = [
  "0f8fad5b-d9cb-469f-a165-70867728950e",
  "5fd1d0c5-6c1b-4a5b-9a1b-3ad8d6f4f111",
  "7c9e6679-7425-40de-944b-e07fc1f90ae7",
] as const;
const INITIAL = 20;
const OWNER = Identifier.parse("system:shop");
const FEATURES: ReadonlySet<string> = new Set([OWNER.toString()]);
const ENTRIES: readonly ShopEntry[] = [
  { id: "bread", item: "minecraft:bread", count: 1, price: 2 },
  { id: "torch", item: "minecraft:torch", count: 4, price: 3, daily_limit: 24 },
  { id: "diamond", item: "minecraft:diamond", count: 1, price: 9, stock: 4 },
  { id: "stick", item: "minecraft:stick", count: 2, price: 0 },
];
const CLOCK = { now: () => Date.UTC(2026, 11, 2, 4, 0, 0), timeZone: "Asia/Shanghai" };
const DAY = "2026-12-02";
const CHARGED: ReadonlySet<string> = new Set(["PAID", "DELIVERED", "UNCONFIRMED"]);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

type Outcome = "ok" | "no_room" | "offline";

/** The request (event) a give runs in: the engine's execute is wrapped so the bridge knows which order it serves. */
const running = new AsyncLocalStorage<string>();

/** The game: it outlives System's restarts (its saves are the players' inventories). Gives are scripted. */
class ScriptedBridge extends MemoryGameBridge {
  readonly script = new Map<string, Outcome[]>();
  /** Order id → stacks given for it. */
  readonly byOrder = new Map<string, GiveStack[][]>();

  override async giveItems(playerId: string, stacks: readonly GiveStack[]): Promise<GiveOutcome> {
    const outcome = this.isOnline(playerId) ? (this.script.get(playerId)?.shift() ?? "ok") : "offline";
    if (outcome === "offline") {
      this.leave(playerId);
      return { given: false, refusal: "offline" };
    }
    if (outcome === "no_room")
      return { given: false, refusal: "no_room", ...(stacks[0] === undefined ? {} : { item: stacks[0] }) };
    const given = await super.giveItems(playerId, stacks);
    if (given.given) {
      const order = (running.getStore() ?? "?").replace(/^event:/, "").replace(/#\d+$/, "");
      this.byOrder.set(order, [...(this.byOrder.get(order) ?? []), structuredClone([...stacks])]);
    }
    return given;
  }
}

const HANG = new Promise<never>(() => {});

/**
 * Wraps an object so that once `dead` is set, every call hangs (async) or throws (sync): the old process stopped
 * there. Calls in flight are tracked, so the next process opens the folder only once the old writes landed.
 */
const killable = <T extends object>(
  target: T,
  dead: { value: boolean },
  inflight: Set<Promise<unknown>>,
): T =>
  new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (dead.value) {
          if (
            key === "read" ||
            key === "transaction" ||
            /^(put|update|begin|complete|fail|close|compact)/.test(String(key))
          )
            return HANG;
          throw new Error("the process is dead");
        }
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(object, args);
        if (!(result instanceof Promise)) return result;
        inflight.add(result);
        void result.then(
          () => inflight.delete(result),
          () => inflight.delete(result),
        );
        return result.then(
          (ok) => (dead.value ? HANG : ok),
          (error: unknown) => (dead.value ? HANG : Promise.reject(error)),
        );
      };
    },
  });

/** One System process over the world folder. */
class Process {
  private constructor(
    readonly engine: AgentEngine,
    readonly events: EventExecutor,
    readonly store: FileAgentStore,
    readonly journal: FileAgentJournal,
    readonly dead: { value: boolean },
    readonly inflight: Set<Promise<unknown>>,
  ) {}

  static async open(world: string, bridge: GameBridge & { isOnline(id: string): boolean }): Promise<Process> {
    const dead = { value: false };
    const inflight = new Set<Promise<unknown>>();
    const rawJournal = await FileAgentJournal.open({ folder: join(world, "system", "journal") });
    const rawStore = new FileAgentStore({ world });
    const journal = killable(rawJournal, dead, inflight);
    const store = killable(rawStore, dead, inflight);
    const engine = new AgentEngine({ steps: new JournalStepRunner(journal) });
    const tracked = new Proxy(engine, {
      get(object, key) {
        const value: unknown = Reflect.get(object, key, object);
        if (key === "execute")
          return (action: AgentAction, request: ExecutionRequest) =>
            running.run(request.requestId, () => object.execute(action, request));
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
    const events = new EventExecutor({
      engine: tracked,
      journal,
      pool: new BoundedPool("event", { running: 4, queued: 256 }),
      rules: () => new EventRules([{ eventType: SHOP_PURCHASE_EVENT, module: "system:shop_purchase" }]),
      isOnline: (playerId) => bridge.isOnline(playerId),
      features: () => FEATURES,
    });
    const logger = new MemoryLogger();
    const services = new ServiceContext(engine, engine.modules())
      .provide(GameContextTypes.GAME_BRIDGE, bridge)
      .provide(GameContextTypes.AGENT_STORE, store)
      .provide(GameContextTypes.EVENTS, events)
      .provide(GameContextTypes.CARDS, new CardRegistry())
      .provide(GameContextTypes.CLOCK, CLOCK)
      .provide(GameContextTypes.LIFECYCLES, new AgentLifecycles())
      .provide(GAME_EVENTS, { emit: async () => {} })
      .provide(GameContextTypes.LOGGER, logger)
      .provide(SERVER_PATHS, { dataDir: world, world });
    const types = new Registry<AnyServerModuleType>("server_module_type");
    types.register(SHOP_FEATURE.id, SHOP_FEATURE as unknown as AnyServerModuleType);
    const manager = new ModuleManager({
      types,
      engine,
      logger,
      switches: new FeatureSwitches(undefined, logger),
      tags: SystemModuleTags.empty(),
    });
    manager.install(
      [
        {
          id: OWNER,
          type: OWNER,
          enabled: true,
          enabledByDefault: undefined,
          server: { entries: ENTRIES } as never,
          client: {},
          source: "test",
        },
      ],
      services,
    );
    engine.start();
    await events.start();
    return new Process(engine, events, rawStore, rawJournal, dead, inflight);
  }

  request(playerId: string): ExecutionRequest {
    return {
      requestId: `r-${Math.random().toString(36).slice(2)}`,
      playerId,
      locale: "en_us",
      features: FEATURES,
    };
  }

  /** The process dies here: later calls hang; the calls in flight land (or not) before the next process opens. */
  async crash(): Promise<void> {
    this.dead.value = true;
    await Promise.allSettled([...this.inflight]);
    // the old code between two durable calls (the stock file's writes) finishes; then the old journal lets go
    await new Promise((resolve) => setTimeout(resolve, 30));
    await this.journal.close();
  }

  async stop(): Promise<void> {
    await this.events.whenIdle();
    await this.store.close();
    await this.journal.close();
  }
}

type Command =
  | { readonly kind: "quote"; readonly player: number; readonly entry: number; readonly count: number }
  | { readonly kind: "confirm"; readonly quote: number; readonly clicks: number }
  | { readonly kind: "give"; readonly player: number; readonly outcome: Outcome }
  | { readonly kind: "leave"; readonly player: number }
  | { readonly kind: "join"; readonly player: number }
  | { readonly kind: "idle" }
  | { readonly kind: "crash" };

const player = fc.integer({ min: 0, max: PLAYERS.length - 1 });
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("quote" as const),
      player,
      entry: fc.integer({ min: 0, max: ENTRIES.length - 1 }),
      count: fc.integer({ min: 1, max: 4 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("confirm" as const),
      quote: fc.nat(),
      clicks: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("give" as const),
      player,
      outcome: fc.constantFrom<Outcome>("ok", "no_room", "offline"),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("leave" as const), player }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("join" as const), player }) },
  { weight: 1, arbitrary: fc.constant({ kind: "idle" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "crash" as const }) },
);

interface QuoteModel {
  readonly id: string;
  readonly player: string;
  readonly entry: ShopEntry;
  readonly count: number;
}

const orderState = async (process: Process, playerId: string) =>
  process.store.read(playerId, (data) => {
    const orders = ModuleData.get(data, shopOrdersStorage(OWNER));
    return {
      entries: ModuleData.get(data, pointsLedgerStorage).entries(),
      balance: ModuleData.get(data, pointsLedgerStorage).balance(),
      orders: orders.list(),
      bought: Object.fromEntries(ENTRIES.map((entry) => [entry.id, orders.bought(DAY, entry.id)])),
    };
  });

/** The invariants; `quiet` adds the ones that hold once every player is online and no event runs. */
const check = async (
  process: Process,
  bridge: ScriptedBridge,
  quotes: readonly QuoteModel[],
  world: string,
  quiet: boolean,
): Promise<void> => {
  // the gives made before the orders are read: each one's order was stored before it (purchases go on running while
  // a check reads, so a give made after the read may belong to an order the read did not see yet)
  const givenBefore = [...bridge.byOrder.keys()];
  const all: { player: string; id: string; order: ShopOrder }[] = [];
  for (const playerId of PLAYERS) {
    const { entries, balance, orders, bought } = await orderState(process, playerId);
    const ids = entries.map((entry) => entry.id);
    expect(new Set(ids).size, `ledger ids of ${playerId} unique`).toBe(ids.length);
    expect(balance).toBe(entries.reduce((sum, entry) => sum + entry.amount, 0));
    expect(balance, "no negative balance").toBeGreaterThanOrEqual(0);
    const charged = orders.filter(({ order }) => CHARGED.has(order.state));
    expect(balance, "balance = initial − charged orders").toBe(
      INITIAL - charged.reduce((sum, { order }) => sum + order.total, 0),
    );
    for (const entry of entries)
      expect(entry.id, "only grants, charges and refunds").toMatch(
        /^(grant:initial|order:shop\/.+|refund:shop\/.+)$/,
      );
    for (const { id, order } of orders) {
      all.push({ player: playerId, id, order });
      const quote = quotes.find((candidate) => `shop/${candidate.id}` === id);
      expect(quote, `order ${id} comes from a quote of its player`).toBeDefined();
      expect(quote?.player).toBe(playerId);
      expect(order.count).toBe((quote?.count ?? 0) * (quote?.entry.count ?? 0));
      expect(order.total).toBe((quote?.count ?? 0) * (quote?.entry.price ?? 0));
      const debits = entries.filter((entry) => entry.id === `order:${id}`);
      const refunds = entries.filter((entry) => entry.id === `refund:${id}`);
      const charges = order.state === "REJECTED" || order.total === 0 ? 0 : 1;
      expect(debits.length, `${id} (${order.state}) charged once`).toBe(charges);
      if (charges === 1) expect(debits[0]?.amount).toBe(-order.total);
      expect(refunds.length, `${id} (${order.state}) refund entry`).toBe(
        order.state === "REFUNDED" && order.total > 0 ? 1 : 0,
      );
      if (refunds.length === 1) expect(refunds[0]?.amount).toBe(order.total);
      const gives = bridge.byOrder.get(id) ?? [];
      for (const stacks of gives) expect(stacks).toEqual([{ item: order.item, count: order.count }]);
      if (order.state === "DELIVERED") expect(gives.length, `${id} DELIVERED given once`).toBe(1);
      else if (order.state === "REFUNDED" || order.state === "REJECTED")
        expect(gives.length, `${id} ${order.state} never given`).toBe(0);
      else expect(gives.length, `${id} ${order.state} given at most once`).toBeLessThanOrEqual(1);
      if (quiet) expect(order.state, `${id} still owed once all are online and idle`).not.toBe("PAID");
    }
    for (const entry of ENTRIES) {
      const items = charged
        .filter(({ order }) => order.entry === entry.id && order.day === DAY)
        .reduce((sum, { order }) => sum + order.count, 0);
      expect(bought[entry.id], `bought today of ${entry.id}`).toBe(items);
      if (entry.daily_limit !== undefined) expect(items).toBeLessThanOrEqual(entry.daily_limit);
    }
  }
  for (const order of givenBefore)
    expect(
      all.some(({ id }) => id === order),
      `items given for ${order} belong to an order`,
    ).toBe(true);
  const sold = all
    .filter(({ order }) => order.entry === "diamond" && CHARGED.has(order.state))
    .reduce((sum, { order }) => sum + order.count, 0);
  const stock = JSON.parse(
    await readFile(join(world, "system", "shop-stock-shop.json"), "utf8").catch(() => "{}"),
  ) as { sold?: Record<string, number>; reservations?: Record<string, unknown> };
  const recorded = stock.sold?.diamond ?? 0;
  expect(recorded, "stock never oversold").toBeLessThanOrEqual(4);
  expect(sold).toBeLessThanOrEqual(4);
  if (quiet) {
    expect(recorded, "stock sold = diamonds of charged orders").toBe(sold);
    for (const id of Object.keys(stock.reservations ?? {}))
      expect(
        all.find((order) => order.id === id)?.order.state,
        `reservation ${id} held by an order still owed`,
      ).toMatch(/^(PAID|UNCONFIRMED)$/);
  }
};

/** What the runs reached (order end states, crashes with purchases in flight, requeued deliveries). */
const seen = new Map<string, number>();
const count = (what: string): void => void seen.set(what, (seen.get(what) ?? 0) + 1);

const runModel = async (commands: readonly Command[]): Promise<void> => {
  const world = await mkdtemp(join(tmpdir(), "system-shop-model-"));
  const bridge = new ScriptedBridge();
  for (const [index, id] of PLAYERS.entries()) bridge.join(id, `P${index}`);
  let process = await Process.open(world, bridge);
  try {
    for (const id of PLAYERS)
      await process.store.transaction(id, (data) =>
        ModuleData.get(data, pointsLedgerStorage).credit("grant:initial", INITIAL, "grant", CLOCK.now()),
      );
    const quotes: QuoteModel[] = [];
    for (const step of commands) {
      switch (step.kind) {
        case "quote": {
          const playerId = PLAYERS[step.player] as string;
          const entry = ENTRIES[step.entry] as ShopEntry;
          const result = await process.engine.execute(
            SHOP_QUOTE_ACTION.action({ item: entry.id, count: step.count }),
            process.request(playerId),
          );
          const id = UUID.exec(JSON.stringify(result.presentation ?? {}))?.[0];
          count(id === undefined ? "quote refused" : "quote");
          if (id !== undefined) quotes.push({ id, player: playerId, entry, count: step.count });
          break;
        }
        case "confirm": {
          const quote = quotes[step.quote % Math.max(1, quotes.length)];
          if (quote === undefined) break;
          const current = process;
          const results: AgentResult[] = await Promise.all(
            Array.from({ length: step.clicks }, () =>
              current.engine.execute(
                SHOP_CONFIRM_ACTION.action({ quote: quote.id }),
                current.request(quote.player),
              ),
            ),
          );
          expect(results.length).toBe(step.clicks);
          if (step.clicks > 1) count("clicked at once");
          for (const result of results) count(`confirm ${result.failure?.code ?? "ok"}`);
          break;
        }
        case "give":
          bridge.script.set(PLAYERS[step.player] as string, [
            ...(bridge.script.get(PLAYERS[step.player] as string) ?? []),
            step.outcome,
          ]);
          break;
        case "leave":
          bridge.leave(PLAYERS[step.player] as string);
          break;
        case "join":
          bridge.join(PLAYERS[step.player] as string, `P${step.player}`);
          await process.events.playerJoined(PLAYERS[step.player] as string);
          break;
        case "idle":
          await process.events.whenIdle();
          break;
        case "crash":
          if (
            process.inflight.size > 0 ||
            !(await Promise.race([process.events.whenIdle().then(() => true), Promise.resolve(false)]))
          )
            count("crash in flight");
          await process.crash();
          process = await Process.open(world, bridge);
          break;
      }
      await check(process, bridge, quotes, world, false);
    }
    // the end: everyone online, no more scripted refusals, every event run
    bridge.script.clear();
    for (const [index, id] of PLAYERS.entries()) {
      bridge.join(id, `P${index}`);
      await process.events.playerJoined(id);
    }
    await process.events.whenIdle();
    await check(process, bridge, quotes, world, true);
    for (const playerId of PLAYERS)
      for (const { order } of (await orderState(process, playerId)).orders) {
        count(order.state);
        if (order.attempt > 0) count("requeued");
      }
  } finally {
    await process.stop().catch(() => undefined);
    await rm(world, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
  }
};

describe("shop purchases (model)", () => {
  it("charges once, delivers once or refunds, over concurrent and replayed confirms, refusals and crashes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 8, maxLength: 40 }), (commands) => runModel(commands)),
      {
        numRuns: Number(globalThis.process.env.SHOP_MODEL_RUNS ?? 25),
        // a failure's `{ seed, path }` replays it: SHOP_MODEL_SEED=<seed> SHOP_MODEL_PATH=<path>
        ...(globalThis.process.env.SHOP_MODEL_SEED === undefined
          ? {}
          : {
              seed: Number(globalThis.process.env.SHOP_MODEL_SEED),
              path: globalThis.process.env.SHOP_MODEL_PATH ?? "0",
              endOnFailure: true,
            }),
        // a crash between the order's DELIVERED and the stock's settle left the diamond's reservation behind (the
        // crash lands there in about one run in three, so the case runs eight times)
        examples: Array.from({ length: 8 }, (): [Command[]] => [
          [
            { kind: "quote", player: 0, entry: 2, count: 1 },
            { kind: "confirm", quote: 0, clicks: 1 },
            { kind: "confirm", quote: 0, clicks: 1 },
            { kind: "crash" },
            { kind: "confirm", quote: 0, clicks: 1 },
            { kind: "give", player: 0, outcome: "ok" },
            { kind: "join", player: 0 },
          ],
        ]),
      },
    );
    if (globalThis.process.env.SHOP_MODEL_STATS !== undefined) console.log(Object.fromEntries(seen));
  }, 600_000);
});
