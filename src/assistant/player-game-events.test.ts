import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ModuleData } from "../agent/storage/player-data.js";
import { FileAgentStore } from "../data/store/file-agent-store.js";
import type { GameEvent } from "../game/game-events.js";
import { silentLogger } from "../util/logger.js";
import { PlayerGameEvents } from "./player-game-events.js";
import { playtimeStorage } from "./playtime-total.js";

const P = "11111111-2222-3333-4444-555555555555";

describe("PlayerGameEvents playtime", () => {
  it("counts the total over every session, short ones included, in the player's file", async () => {
    let now = 1_000_000;
    const events: GameEvent[] = [];
    const world = mkdtempSync(join(tmpdir(), "playtime-"));
    const open = async () => {
      const store = new FileAgentStore({ world });
      await store.load(P);
      return new PlayerGameEvents(
        { emit: async (event) => void events.push(event) },
        { now: () => now, timeZone: "UTC" },
        store,
        silentLogger,
      );
    };
    let players = await open();
    // three sessions of 40 s: no playtime event, but 120 s online
    for (let session = 0; session < 3; session++) {
      await players.joined(P, false, async () => {});
      now += 40_000;
      await players.tickPlaytime();
      await players.left(P);
    }
    expect(events.filter((event) => event.type === "system:playtime")).toEqual([]);
    // a restart reads the total back from the player's file
    players = await open();
    await players.joined(P, false, async () => {});
    now += 61_000;
    await players.tickPlaytime();
    await players.tickPlaytime();
    const playtime = events.filter((event) => event.type === "system:playtime");
    expect(playtime.map((event) => event.data)).toEqual([{ minutes: 1, total: 3 }]);
  });

  it("counts time once when a leave comes while a minute is being written", async () => {
    let now = 5_000_000;
    const world = mkdtempSync(join(tmpdir(), "playtime-race-"));
    const store = new FileAgentStore({ world });
    await store.load(P);
    const players = new PlayerGameEvents(
      { emit: async () => {} },
      { now: () => now, timeZone: "UTC" },
      store,
      silentLogger,
    );
    await players.joined(P, false, async () => {});
    now += 90_000;
    await Promise.all([players.tickPlaytime(), players.tickPlaytime(), players.left(P)]);
    const millis = await store.read(P, (data) => ModuleData.get(data, playtimeStorage).toData().millis);
    expect(millis).toBe(90_000);
  });

  it("counts an interval whose tick transaction could not run (a business write in flight) at the next tick", async () => {
    let now = 9_000_000;
    const events: GameEvent[] = [];
    const world = mkdtempSync(join(tmpdir(), "playtime-failed-"));
    const real = new FileAgentStore({ world });
    await real.load(P);
    let failNext = true;
    const store = new Proxy(real, {
      get(target, property) {
        if (property === "tickTransaction" && failNext)
          return () => {
            failNext = false;
            return { ran: false };
          };
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const players = new PlayerGameEvents(
      { emit: async (event) => void events.push(event) },
      { now: () => now, timeZone: "UTC" },
      store,
      silentLogger,
    );
    await players.joined(P, false, async () => {});
    now += 61_000;
    await players.tickPlaytime();
    now += 60_000;
    await players.tickPlaytime();
    expect(events.filter((event) => event.type === "system:playtime").map((event) => event.data)).toEqual([
      { minutes: 2, total: 2 },
    ]);
  });

  it("keeps playtime ticks in memory and writes them coalesced after the store's delay", async () => {
    let now = 20_000_000;
    const world = mkdtempSync(join(tmpdir(), "playtime-coalesced-"));
    const tasks: (() => Promise<void>)[] = [];
    const store = new FileAgentStore({ world, schedule: (task) => void tasks.push(task) });
    await store.load(P);
    const players = new PlayerGameEvents(
      { emit: async () => {} },
      { now: () => now, timeZone: "UTC" },
      store,
      silentLogger,
    );
    await players.joined(P, false, async () => {});
    const onDisk = async () =>
      ModuleData.get(await new FileAgentStore({ world }).read(P, (data) => data), playtimeStorage).toData()
        .millis;
    for (let minute = 0; minute < 3; minute++) {
      now += 60_000;
      await players.tickPlaytime();
    }
    // three minutes counted in memory, none written: one coalesced write is waiting for the pool
    expect(await onDisk()).toBe(0);
    expect(tasks).toHaveLength(1);
    await tasks[0]?.();
    expect(await onDisk()).toBe(180_000);
  });
});
