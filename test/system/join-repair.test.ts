import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModuleData } from "../../src/agent/storage/player-data.js";
import { FileAgentStore } from "../../src/data/store/file-agent-store.js";
import { systemClock } from "../../src/game/context-types.js";
import { localDay, previousDay } from "../../src/module/builtin/check-in/local-day.js";
import { shopOrdersStorage } from "../../src/module/builtin/shop/shop-orders.js";
import { CheckInLedger } from "../../src/module/builtin/storage/check-in-ledger.js";
import { checkInStorage } from "../../src/module/builtin/storage/check-in-storage.js";
import { pointsLedgerStorage } from "../../src/module/builtin/storage/points-ledger.js";
import { Identifier } from "../../src/util/identifier.js";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import {
  announceRule,
  held,
  joinPlayer,
  type Player,
  quitAndWait,
  type ShippedServer,
  startShipped,
  tempFolder,
  waitFor,
} from "./system-support.js";

/**
 * What a crash leaves recorded but not queued is queued at the next join, once. A SIGKILL between a feature's
 * player-file write and its journal write leaves exactly these files (the kill loops hit the moment by chance;
 * here the files are written as the crash left them, with the real stores, on a stopped server): a check-in
 * recorded with its reward PENDING and no delivery event, and a paid shop order whose next delivery attempt was
 * recorded and never queued. The player only joins again (no second check-in, no click).
 */

const CHECK_IN = Identifier.parse("system:check_in");
const SHOP = Identifier.parse("system:shop");
const clock = systemClock();
const today = localDay(clock.now(), clock.timeZone);
const JOINED = "Joined: repairs done.";
const ORDER = "shop/6d1e1c6e-0000-4000-8000-000000000001";

/** The player files and check-in ledger a SIGKILL right after each feature's player-file write leaves. */
const writeCrashLeftovers = async (folder: string): Promise<void> => {
  const world = join(folder, "world");
  const store = new FileAgentStore({ world });
  const steve = offlineUuid("Steve");
  await store.transaction(steve, (data) => {
    const record = ModuleData.get(data, checkInStorage(CHECK_IN));
    record.checkIn(today, previousDay(today));
    record.putDelivery(today, [
      { item: "minecraft:bread", count: 3 },
      { item: "minecraft:experience_bottle", count: 2 },
    ]);
    ModuleData.get(data, pointsLedgerStorage).credit(`check_in:${today}`, 10, "check_in", clock.now());
  });
  await new CheckInLedger(join(world, "system", "check-in-ledger.json")).claim(
    steve,
    today,
    previousDay(today),
  );
  const alex = offlineUuid("Alex");
  await store.transaction(alex, (data) => {
    const points = ModuleData.get(data, pointsLedgerStorage);
    points.credit("grant:1", 100, "admin", clock.now());
    points.debit(`order:${ORDER}`, 20, "shop:bread", clock.now());
    const orders = ModuleData.get(data, shopOrdersStorage(SHOP));
    orders.place(ORDER, {
      entry: "bread",
      item: "minecraft:bread",
      count: 10,
      quantity: 10,
      unitPrice: 2,
      total: 20,
      state: "PAID",
      day: today,
      at: clock.now(),
      attempt: 0,
    });
    // the player left mid-delivery: the next attempt was recorded, the kill came before its event
    orders.nextAttempt(ORDER);
  });
  await store.close();
};

describe("a join queues what a crash left recorded but not queued", () => {
  let folder: string;
  let server: ShippedServer;

  beforeAll(async () => {
    folder = tempFolder("system-join-repair-");
    await writeCrashLeftovers(folder);
    server = await startShipped({
      folder,
      files: {
        // a notice at every join, queued after the join's repairs: once it arrives, whatever they queued ran
        "config/system/advancements.json": JSON.stringify({
          rules: [announceRule("hello", "system:join", {}, JOINED)],
        }),
      },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  /** The player's event tasks as the server keeps them (id → state). */
  const tasks = (name: string): Map<string, string> =>
    new Map(
      server.system.assistant.events.recent(50, offlineUuid(name)).map((task) => [task.id, task.state]),
    );

  it("delivers a check-in reward recorded PENDING with no event when the player only rejoins", async () => {
    let steve: Player = await joinPlayer(server.port, "Steve");
    await steve.next((m) => /Your check-in reward has arrived/.test(m.text));
    await waitFor(() => (held(steve, "bread") === 3 ? true : undefined));
    expect(held(steve, "experience_bottle")).toBe(2);
    const delivery = `system:check_in/${offlineUuid("Steve")}/${today}`;
    expect(tasks("Steve").get(delivery)).toBe("SUCCEEDED");
    await quitAndWait(server, steve, "Steve");

    // a second join offers it again under the same id: a duplicate, nothing is paid twice
    steve = await joinPlayer(server.port, "Steve");
    try {
      await steve.next((m) => m.text === JOINED);
      expect([...tasks("Steve").keys()].filter((id) => id.startsWith(delivery))).toEqual([delivery]);
      expect(held(steve, "bread")).toBe(3);
      expect(steve.chat.some((m) => /Your check-in reward has arrived/.test(m.text))).toBe(false);
      const again = await steve.say("/system checkin", (m) => /Checked in|already/.test(m.text));
      expect(again.text).toMatch(/^You have already checked in today/);
    } finally {
      await quitAndWait(server, steve, "Steve");
    }
  });

  it("delivers a paid order whose recorded attempt was never queued when the player only rejoins", async () => {
    let alex: Player = await joinPlayer(server.port, "Alex");
    await alex.next((m) => /^Order [0-9a-f]{8} delivered: Bread × 10/.test(m.text));
    await waitFor(() => (held(alex, "bread") === 10 ? true : undefined));
    expect(tasks("Alex").get(`${ORDER}#1`)).toBe("SUCCEEDED");
    const orders = await alex.say("/system orders", (m) => /Your orders/.test(m.text));
    expect(orders.text).toContain("delivered");
    expect(orders.text).toContain("Balance: 80");
    await quitAndWait(server, alex, "Alex");

    alex = await joinPlayer(server.port, "Alex");
    try {
      await alex.next((m) => m.text === JOINED);
      expect([...tasks("Alex").keys()].filter((id) => id.startsWith(ORDER))).toEqual([`${ORDER}#1`]);
      expect(held(alex, "bread")).toBe(10);
    } finally {
      await quitAndWait(server, alex, "Alex");
    }
  });
});
