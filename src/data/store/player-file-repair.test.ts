import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { DataStorage, ModuleStorage } from "../../agent/storage/module-storage.js";
import { ModuleData } from "../../agent/storage/player-data.js";
import { codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { MemoryLogger } from "../../util/logger.js";
import { type DamagedPlayerFile, FileAgentStore } from "./file-agent-store.js";
import { encodeNbtFile } from "./nbt-file.js";
import { encodePlayer, PLAYER_FILE_VERSION } from "./player-file.js";

const PLAYER = "0f8fad5b-d9cb-469f-a165-70867728950e";

class Counter extends DataStorage<{ count: number }> {
  #count: number;
  constructor(data?: { count: number }) {
    super();
    this.#count = data?.count ?? 0;
  }
  get count(): number {
    return this.#count;
  }
  add(): void {
    this.#count++;
    this.markDirty();
  }
  toData() {
    return { count: this.#count };
  }
}

const counter = (type: string) =>
  ModuleStorage.of({
    owner: Identifier.parse("test:feature"),
    type,
    codecId: Identifier.parse("test:counter_v1"),
    codec: codec(z.object({ count: z.number().int() })),
    factory: (data) => new Counter(data),
  });
const POINTS = counter("points");
const STREAK = counter("streak");
const KIND = { label: "player file", version: PLAYER_FILE_VERSION, maxBytes: 1 << 20 };

let world: string;
let logger: MemoryLogger;
let reports: DamagedPlayerFile[];
let store: FileAgentStore;
const players = () => join(world, "system", "players");
const file = () => join(players(), `${PLAYER}.dat`);

beforeEach(async () => {
  world = await mkdtemp(join(tmpdir(), "player-repair-"));
  logger = new MemoryLogger();
  reports = [];
  let time = 1000;
  store = new FileAgentStore({
    world,
    logger,
    now: () => time++,
    onDamaged: (report) => reports.push(report),
  });
  await mkdir(players(), { recursive: true });
});
afterEach(async () => {
  await rm(world, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
});

/** A player file whose `streak` entry holds data its codec refuses, beside a sound `points` entry. */
const damagedEntryFile = (): Buffer =>
  encodeNbtFile(
    encodePlayer({
      playerId: PLAYER,
      generation: 0,
      moduleData: {
        "test:feature": {
          points: { codec: "test:counter_v1", data: { count: 7 } },
          streak: { codec: "test:counter_v1", data: { count: "seven" } },
        },
      },
    }),
    KIND,
  );

describe("damaged player files", () => {
  it("keeps a copy before a write replaces an entry of the wrong shape; the rest of the file is kept", async () => {
    const bytes = damagedEntryFile();
    await writeFile(file(), bytes);
    // a read meets the damage: a copy is kept and reported, the entry reads as empty, nothing is written
    expect(await store.read(PLAYER, (data) => ModuleData.get(data, STREAK).count)).toBe(0);
    const copies = (await readdir(players())).filter((name) => name.includes(".corrupt-"));
    expect(copies).toHaveLength(1);
    expect(await readFile(join(players(), copies[0] ?? ""))).toEqual(bytes);
    expect(await readFile(file())).toEqual(bytes);
    expect(reports).toEqual([
      expect.objectContaining({
        playerId: PLAYER,
        entries: ["test:feature/streak"],
        kept: expect.any(String),
      }),
    ]);
    // a transaction replaces it (no second copy of the same damage); the sound entry is untouched
    await store.transaction(PLAYER, (data) => ModuleData.get(data, STREAK).add());
    expect((await readdir(players())).filter((name) => name.includes(".corrupt-"))).toHaveLength(1);
    expect(await store.read(PLAYER, (data) => ModuleData.get(data, STREAK).count)).toBe(1);
    expect(await store.read(PLAYER, (data) => ModuleData.get(data, POINTS).count)).toBe(7);
    expect(reports).toHaveLength(1);
    expect(
      logger.lines.some((line) => line.includes("test:feature/streak") && line.includes(copies[0] ?? "?")),
    ).toBe(true);
  });

  it("moves an unreadable file aside with its bytes, reports it, and restores a mended copy", async () => {
    const garbage = gzipSync(Buffer.from("not a player file"));
    await writeFile(file(), garbage);
    expect(await store.read(PLAYER, (data) => ModuleData.get(data, POINTS).count)).toBe(0);
    expect(reports).toHaveLength(1);
    const kept = reports[0]?.kept ?? "";
    expect(await readFile(kept)).toEqual(garbage);
    await store.transaction(PLAYER, (data) => ModuleData.get(data, POINTS).add());

    // still damaged: refused with the reason
    expect((await store.readCopy(PLAYER, kept)).success).toBe(false);
    // the admin mends it (here: writes a sound file over the copy), then restores it
    await writeFile(
      kept,
      encodeNbtFile(
        encodePlayer({
          playerId: PLAYER,
          generation: 0,
          moduleData: { "test:feature": { points: { codec: "test:counter_v1", data: { count: 42 } } } },
        }),
        KIND,
      ),
    );
    expect((await store.readCopy(PLAYER, kept)).success).toBe(true);
    const replaced = await store.restore(PLAYER, kept);
    expect(replaced).toMatch(/\.dat\.replaced-\d+$/);
    expect(await store.read(PLAYER, (data) => ModuleData.get(data, POINTS).count)).toBe(42);
    // the file it replaced (1 point since the damage) is kept too
    expect((await store.readCopy(PLAYER, replaced ?? "")).success).toBe(true);
    expect(await readFile(kept)).toEqual(await readFile(file()));
  });
});
