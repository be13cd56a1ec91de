import { afterEach, describe, expect, it } from "vitest";
import { GameHarness, TestClock } from "../../../../test/support/game-harness.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { eventRequestId } from "../../../agent/execution/event-executor.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import type { GiveOutcome, GiveStack } from "../../../game/game-bridge.js";
import { GIVE_ITEMS } from "../../../game/tools/give-items-tool.js";
import { MemoryGameBridge } from "../../../game/tools/memory-game-bridge.js";
import { Identifier } from "../../../util/identifier.js";
import { checkInStorage } from "../storage/check-in-storage.js";
import { pointsLedgerStorage } from "../storage/points-ledger.js";
import { CHECK_IN_DELIVERY_ACTION, deliveryEventId } from "./check-in-delivery-module.js";
import { CHECK_IN_ACTION } from "./check-in-module.js";

const STEVE = "0f8fad5b-d9cb-469f-a165-70867728950e";
const OWNER = Identifier.parse("system:check_in");
const STORAGE = checkInStorage(OWNER);
const CONFIG = {
  rewards: [
    { item: "minecraft:bread", count: 3 },
    { item: "minecraft:experience_bottle", count: 2 },
  ],
  streak_bonus: { every: 3, items: [{ item: "minecraft:diamond", count: 1 }] },
};
/** 2026-12-02 12:00 in Shanghai. */
const NOON = Date.UTC(2026, 11, 2, 4, 0, 0);
const DAY = 24 * 3_600_000;

let harness: GameHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const open = async (
  options: { world?: string; bridge?: MemoryGameBridge; clock?: TestClock } = {},
): Promise<GameHarness> => {
  harness = await GameHarness.create({
    entries: [{ id: "system:check_in", server: CONFIG }],
    ...options,
  });
  return harness;
};

const zhText = (h: GameHarness, result: AgentResult) => h.render(result, "zh_cn").text;
const record = (h: GameHarness) => h.store.read(STEVE, (data) => ModuleData.get(data, STORAGE).toData());
const points = (h: GameHarness) =>
  h.store.read(STEVE, (data) => ModuleData.get(data, pointsLedgerStorage).entries());
const checkIn = async (h: GameHarness, text = "/system checkin") => {
  const result = await h.command(STEVE, text);
  await h.events.whenIdle();
  return result;
};

describe("system:check_in", () => {
  it("checks in once per day: the reward arrives through the durable event, a second check-in is refused with a card", async () => {
    const h = await open();
    h.bridge.join(STEVE, "Steve");
    const first = await checkIn(h);
    expect(first.isSuccess()).toBe(true);
    expect(h.render(first).text).toBe(
      "Checked in! Streak: 1 day, 1 day in total.\nReward: Bread × 3, Bottle o' Enchanting × 2",
    );
    expect(h.bridge.count(STEVE, "minecraft:bread")).toBe(3);
    expect(h.bridge.count(STEVE, "minecraft:experience_bottle")).toBe(2);
    const eventId = deliveryEventId(OWNER, STEVE, "2026-12-02");
    expect(h.journal.event(eventId)?.state).toBe("SUCCEEDED");
    expect(h.journal.step(`${eventRequestId(eventId)}/give/0`)?.state).toBe("DONE");

    const second = await checkIn(h, "签到");
    expect(second.failure?.code).toBe("ALREADY_DONE");
    expect(second.presentation?.type).toBe("system:check_in");
    expect(h.render(second).text).toBe("You have already checked in today (2026-12-02). Streak: 1 day.");
    expect(h.bridge.gives).toHaveLength(2);
    expect((await record(h)).total).toBe(1);
  });

  it("refuses before writing anything on a host that gives no items (the gateway): no record, no points, no event", async () => {
    const h = await open({ bridge: new MemoryGameBridge(undefined, { givesItems: false }) });
    h.bridge.join(STEVE, "Steve");
    const result = await checkIn(h);
    expect(result.failure?.code).toBe("NO_WORLD_EFFECTS");
    expect(h.languages.format("en_us", result.failure?.key ?? "", [])).toContain("gives no items yet");
    expect(h.languages.format("zh_cn", result.failure?.key ?? "", [])).toContain("暂不发放物品");
    expect((await record(h)).total ?? 0).toBe(0);
    expect(await points(h)).toEqual([]);
    expect(h.journal.event(deliveryEventId(OWNER, STEVE, "2026-12-02"))).toBeUndefined();
    expect(h.bridge.gives).toHaveLength(0);
  });

  it("counts the streak over consecutive local days (server time zone), resets it after a gap, pays the bonus", async () => {
    const clock = new TestClock(NOON, "Asia/Shanghai");
    const h = await open({ clock });
    h.bridge.join(STEVE, "Steve");
    await checkIn(h);
    clock.millis = Date.UTC(2026, 11, 2, 15, 59); // 23:59 in Shanghai: still the same day
    expect((await checkIn(h)).failure?.code).toBe("ALREADY_DONE");
    clock.millis = Date.UTC(2026, 11, 2, 16, 1); // 00:01 on the 3rd in Shanghai
    expect(h.render(await checkIn(h)).text).toContain("Streak: 2 days");
    clock.millis = NOON + 2 * DAY;
    const third = h.render(await checkIn(h)).text;
    expect(third).toContain("Streak: 3 days, 3 days in total.");
    expect(third).toContain("Diamond × 1");
    expect(h.bridge.count(STEVE, "minecraft:diamond")).toBe(1);
    clock.millis = NOON + 4 * DAY; // skipped a day
    expect(h.render(await checkIn(h)).text).toContain("Streak: 1 day, 4 days in total.");
    expect(await record(h)).toMatchObject({ lastDay: "2026-12-06", streak: 1, total: 4 });
  });

  it("pays a replayed delivery step exactly once, even after a crash before the player file learnt of it", async () => {
    const h = await open();
    h.bridge.join(STEVE, "Steve");
    const store = h.store;
    const commit = store.transaction.bind(store);
    let crashed = false;
    // The player file cannot record the give (a disk error) right after the one step gave both stacks.
    store.transaction = async (playerId, work) => {
      if (!crashed && h.bridge.gives.length === 2) {
        crashed = true;
        throw new Error("crash");
      }
      return commit(playerId, work);
    };
    await checkIn(h);
    const eventId = deliveryEventId(OWNER, STEVE, "2026-12-02");
    // Given but not recorded: never retried by itself, held for an admin.
    expect(h.journal.event(eventId)?.state).toBe("UNCONFIRMED");
    expect((await record(h)).deliveries[0]?.state).toBe("UNCONFIRMED");
    expect((await checkIn(h)).failure?.code).toBe("ALREADY_DONE");
    expect(h.bridge.gives).toHaveLength(2);
    const world = h.world;
    await h.close(false);

    // Restart on the same world and replay the same event request: give/0 has a DONE receipt.
    const bridge = h.bridge;
    const again = await open({ world, bridge });
    const items = CONFIG.rewards;
    const replay = () =>
      again.engine.execute(CHECK_IN_DELIVERY_ACTION.action({ day: "2026-12-02", items }), {
        requestId: eventRequestId(eventId),
        playerId: STEVE,
        locale: "en_us",
        features: again.features(STEVE),
        event: true,
      });
    expect((await replay()).isSuccess()).toBe(true);
    expect((await replay()).isSuccess()).toBe(true);
    expect(bridge.gives.map((give) => `${give.item}×${give.count}`)).toEqual([
      "minecraft:bread×3",
      "minecraft:experience_bottle×2",
    ]);
    expect((await record(again)).deliveries[0]?.state).toBe("DELIVERED");
  });

  it("holds the reward of an offline player as a WAITING event and delivers it when they join", async () => {
    const h = await open();
    h.bridge.join(STEVE, "Steve");
    h.bridge.leave(STEVE);
    const result = await h.run(CHECK_IN_ACTION.action({}), STEVE);
    await h.events.whenIdle();
    expect(result.isSuccess()).toBe(true);
    const eventId = deliveryEventId(OWNER, STEVE, "2026-12-02");
    expect(h.journal.event(eventId)?.state).toBe("WAITING");
    expect(h.bridge.gives).toEqual([]);
    h.bridge.join(STEVE, "Steve");
    await h.events.playerJoined(STEVE);
    await h.events.whenIdle();
    expect(h.journal.event(eventId)?.state).toBe("SUCCEEDED");
    expect(h.bridge.count(STEVE, "minecraft:bread")).toBe(3);
    expect((await record(h)).deliveries[0]).toMatchObject({ state: "DELIVERED", given: 2 });
  });

  it("requeues a delivery the player left before it was given, and finishes it on the next join without paying twice", async () => {
    class LeavingBridge extends MemoryGameBridge {
      #left = false;
      override async giveItems(playerId: string, stacks: readonly GiveStack[]): Promise<GiveOutcome> {
        if (!this.#left) {
          this.#left = true;
          this.leave(playerId);
        }
        return super.giveItems(playerId, stacks);
      }
    }
    const bridge = new LeavingBridge();
    const h = await open({ bridge });
    bridge.join(STEVE, "Steve");
    await checkIn(h);
    expect(h.journal.event(deliveryEventId(OWNER, STEVE, "2026-12-02"))?.state).toBe("FAILED");
    const retry = deliveryEventId(OWNER, STEVE, "2026-12-02", 1);
    expect(h.journal.event(retry)?.state).toBe("WAITING");
    bridge.join(STEVE, "Steve");
    await h.events.playerJoined(STEVE);
    await h.events.whenIdle();
    expect(h.journal.event(retry)?.state).toBe("SUCCEEDED");
    expect(bridge.gives.map((give) => give.item)).toEqual(["minecraft:bread", "minecraft:experience_bottle"]);
  });

  it("retries a delivery the game refused (full inventory) on the next check-in command, paying once", async () => {
    let room = false;
    const bridge = new MemoryGameBridge(() => room);
    const h = await open({ bridge });
    bridge.join(STEVE, "Steve");
    await checkIn(h);
    expect(h.journal.event(deliveryEventId(OWNER, STEVE, "2026-12-02"))?.state).toBe("FAILED");
    expect(bridge.gives).toEqual([]);
    expect((await checkIn(h)).failure?.code).toBe("ALREADY_DONE");
    expect(h.journal.event(deliveryEventId(OWNER, STEVE, "2026-12-02", 1))?.state).toBe("FAILED");
    room = true;
    expect((await checkIn(h)).failure?.code).toBe("ALREADY_DONE");
    expect(h.journal.event(deliveryEventId(OWNER, STEVE, "2026-12-02", 2))?.state).toBe("SUCCEEDED");
    await checkIn(h);
    expect(bridge.gives.map((give) => give.item)).toEqual(["minecraft:bread", "minecraft:experience_bottle"]);
    expect((await record(h)).deliveries[0]?.state).toBe("DELIVERED");
  });

  it("offers a reward again when its event was never queued; the second check-in is still refused", async () => {
    const h = await open();
    h.bridge.join(STEVE, "Steve");
    const events = h.events;
    const submit = events.submit.bind(events);
    let refuse = true;
    events.submit = async (event) => {
      if (refuse) {
        refuse = false;
        return {
          accepted: false,
          duplicate: false,
          failure: { code: "STORAGE_FULL", key: "system.error.storage_full", args: [] },
        };
      }
      return submit(event);
    };
    const first = await checkIn(h);
    expect(first.isPartial()).toBe(true);
    expect(h.render(first).text).toContain("not sent yet");
    expect(h.bridge.gives).toEqual([]);
    const second = await checkIn(h);
    expect(second.failure?.code).toBe("ALREADY_DONE");
    expect(h.bridge.count(STEVE, "minecraft:bread")).toBe(3);
    await checkIn(h);
    expect(h.bridge.gives).toHaveLength(2);
  });

  it("after a crash mid-give (RUNNING receipt) holds the reward UNCONFIRMED, tells the player, and never gives it again", async () => {
    // The first run: the event was RUNNING and its give step had begun when the process died.
    const first = await open();
    const world = first.world;
    const result = await first.run(CHECK_IN_ACTION.action({}), STEVE);
    expect(result.isSuccess()).toBe(true);
    await first.events.whenIdle();
    const eventId = deliveryEventId(OWNER, STEVE, "2026-12-02");
    await first.journal.updateEvent(eventId, { state: "RUNNING", attempts: 1 });
    await first.journal.beginStep(`${eventRequestId(eventId)}/give/0`, GIVE_ITEMS.id.toString());
    await first.close(false);

    const bridge = new MemoryGameBridge();
    bridge.join(STEVE, "Steve");
    const second = await open({ world, bridge });
    await second.events.whenIdle();
    expect(second.journal.event(eventId)?.state).toBe("UNCONFIRMED");
    const settled = AgentResult.CODEC.decode(second.journal.event(eventId)?.result);
    if (!settled.success) throw new Error(settled.error);
    expect(settled.value.failure?.code).toBe("EFFECT_UNKNOWN");
    expect(second.render(settled.value).text).toBe(
      "Your check-in reward of 2026-12-02 (Bread × 3, Bottle o' Enchanting × 2) could not be confirmed: the " +
        "server stopped while it was being given. An admin will check your inventory and sort it out; there is " +
        "no need to check in again.",
    );
    expect(second.render(settled.value, "zh_cn").text).toContain("管理员会核对");
    expect((await record(second)).deliveries[0]?.state).toBe("UNCONFIRMED");
    expect(second.events.unconfirmed().map((task) => task.id)).toEqual([eventId]);
    // Neither a later check-in command nor another restart gives it again.
    expect((await checkIn(second)).failure?.code).toBe("ALREADY_DONE");
    expect(second.journal.event(deliveryEventId(OWNER, STEVE, "2026-12-02", 1))).toBeUndefined();
    await second.close(false);
    const third = await open({ world, bridge });
    await third.events.playerJoined(STEVE);
    await third.events.whenIdle();
    expect(bridge.gives).toEqual([]);
    expect(third.events.unconfirmed().map((task) => task.id)).toEqual([eventId]);

    // The admin redelivers: given once, as a new task, and the day is delivered.
    await third.events.redeliver(eventId);
    await third.events.whenIdle();
    expect(bridge.count(STEVE, "minecraft:bread")).toBe(3);
    expect(bridge.count(STEVE, "minecraft:experience_bottle")).toBe(2);
    expect((await record(third)).deliveries[0]?.state).toBe("DELIVERED");
    expect(third.events.unconfirmed()).toEqual([]);
    expect((await checkIn(third)).failure?.code).toBe("ALREADY_DONE");
    expect(bridge.gives).toHaveLength(2);
  });

  it("never pays a day twice after the player's file was reset, nor after a restart: the ledger outlives both", async () => {
    const first = await open();
    first.bridge.join(STEVE, "Steve");
    const checked = await checkIn(first);
    expect(zhText(first, checked)).toMatch(/^签到成功！已连续签到 1 天，累计 1 天。\n奖励：/);
    await first.store.reset(STEVE);
    expect((await record(first)).total).toBe(0);
    // the ledger is the server's file (`<world>/system/check-in-ledger.json`): a restart reads it back
    await first.close(false);
    const h = await open({ world: first.world, bridge: first.bridge, clock: first.clock });
    const again = await checkIn(h);
    expect(again.failure?.code).toBe("ALREADY_DONE");
    // the ledger outlives the file with the day's streak: the player keeps it
    expect(h.render(again, "zh_cn").text).toBe("你今天（2026-12-02）已经签到过了。已连续签到 1 天。");
    expect(h.bridge.count(STEVE, "minecraft:bread")).toBe(3);
    expect(h.bridge.gives).toHaveLength(2);
    // the next day pays again
    h.clock.millis += DAY;
    expect((await checkIn(h)).isSuccess()).toBe(true);
    expect(h.bridge.count(STEVE, "minecraft:bread")).toBe(6);
  });

  it("credits the configured points in the check-in's own transaction, once per day", async () => {
    const h = await open();
    h.bridge.join(STEVE, "Steve");
    await checkIn(h);
    await checkIn(h, "签到");
    expect(await points(h)).toEqual([
      { id: "check_in:2026-12-02", amount: 10, reason: "check_in", at: NOON },
    ]);
    h.clock.millis += DAY;
    await checkIn(h);
    expect((await points(h)).map((entry) => entry.id)).toEqual([
      "check_in:2026-12-02",
      "check_in:2026-12-03",
    ]);
    expect(h.manager.storages()).toContain(pointsLedgerStorage);
  });

  it("credits no points when the config says 0", async () => {
    harness = await GameHarness.create({
      entries: [{ id: "system:check_in", server: { ...CONFIG, points: 0 } }],
    });
    harness.bridge.join(STEVE, "Steve");
    expect((await checkIn(harness)).isSuccess()).toBe(true);
    expect(await points(harness)).toEqual([]);
  });

  it("refuses an invalid data-pack config: the feature is then not installed", async () => {
    harness = await GameHarness.create({
      entries: [{ id: "system:check_in", server: { rewards: [{ item: "bread", count: 0 }] } }],
    });
    expect(harness.manager.isInstalled("system:check_in")).toBe(false);
    expect(harness.engine.modules().commands().moduleOf("签到")).toBeUndefined();
  });
});
