import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemoryLogger } from "../util/logger.js";
import { PlayerDirectory } from "./player-directory.js";

let folder: string;
let path: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "system-players-"));
  path = join(folder, "known-players.json");
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const STEVE = { uuid: "uuid-steve", name: "Steve", locale: "en_us", opLevel: 0 };

describe("PlayerDirectory", () => {
  it("refuses garbage in known-players.json and never overwrites it at the next join", async () => {
    const garbage = Buffer.from([0x7b, 0x22, 0xff, 0x00, 0x13, 0x37]);
    await writeFile(path, garbage);
    const directory = new PlayerDirectory(path, new MemoryLogger());
    await expect(directory.load()).rejects.toThrow(`${path} is not valid JSON`);
    expect(directory.join(STEVE)).toBe(true);
    await expect(directory.remember(STEVE)).rejects.toThrow();
    expect(await readFile(path)).toEqual(garbage);
  });

  it("refuses a known-players.json of the wrong shape, naming the field", async () => {
    const text = JSON.stringify({ "uuid-alex": "Alex", "uuid-steve": 42 });
    await writeFile(path, text);
    await expect(new PlayerDirectory(path, new MemoryLogger()).load()).rejects.toThrow(
      /known-players\.json is invalid: uuid-steve: /,
    );
    expect(await readFile(path, "utf8")).toBe(text);
  });

  it("remembers names across restarts", async () => {
    const directory = new PlayerDirectory(path, new MemoryLogger());
    await directory.load();
    expect(directory.join(STEVE)).toBe(true);
    await directory.remember(STEVE);
    expect(directory.join(STEVE)).toBe(false);
    const restarted = new PlayerDirectory(path, new MemoryLogger());
    await restarted.load();
    expect(restarted.resolve("steve")).toEqual({ uuid: "uuid-steve", name: "Steve" });
    expect(restarted.join(STEVE)).toBe(false);
  });

  it("keeps both names when two players join at once (no lost update)", async () => {
    const directory = new PlayerDirectory(path, new MemoryLogger());
    await directory.load();
    const alex = { ...STEVE, uuid: "uuid-alex", name: "Alex" };
    directory.join(STEVE);
    directory.join(alex);
    await Promise.all([directory.remember(STEVE), directory.remember(alex)]);
    const restarted = new PlayerDirectory(path, new MemoryLogger());
    await restarted.load();
    expect(restarted.resolve("steve")?.uuid).toBe("uuid-steve");
    expect(restarted.resolve("alex")?.uuid).toBe("uuid-alex");
  });
});
