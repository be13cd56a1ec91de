import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "./codec.js";
import { ConfigInstance } from "./config-instance.js";
import { CorruptFileError } from "./corrupt-file-error.js";
import { MemoryLogger } from "./logger.js";

interface Settings {
  readonly name: string;
  readonly limit: number;
}
const SETTINGS = codec<Settings>(z.object({ name: z.string(), limit: z.number().int().min(0) }));
const DEFAULTS: Settings = { name: "default", limit: 1 };

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "system-config-"));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const instance = (path: string, logger = new MemoryLogger()): ConfigInstance<Settings> =>
  new ConfigInstance({ path, codec: SETTINGS, defaults: DEFAULTS, logger, name: "test.json" });

const refusing = (path: string, logger = new MemoryLogger()): ConfigInstance<Settings> =>
  new ConfigInstance({
    path,
    codec: SETTINGS,
    defaults: DEFAULTS,
    logger,
    name: "test.json",
    onInvalid: "refuse",
  });

describe("ConfigInstance", () => {
  it("writes the defaults when the file is missing, so admins can find it", async () => {
    const path = join(folder, "config", "system", "test.json");
    const config = instance(path);
    expect(await config.reload()).toBe(true);
    expect(config.get()).toEqual(DEFAULTS);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual(DEFAULTS);
  });

  it("set persists the encoded value with an atomic write and leaves no temp file", async () => {
    const path = join(folder, "test.json");
    const config = instance(path);
    const seen: Settings[] = [];
    config.onChange((value) => seen.push(value));
    await config.set({ name: "钻石", limit: 5 });
    expect(config.get()).toEqual({ name: "钻石", limit: 5 });
    expect(await readFile(path, "utf8")).toBe(`${JSON.stringify({ name: "钻石", limit: 5 }, null, 2)}\n`);
    expect(await readdir(folder)).toEqual(["test.json"]);
    expect(seen).toEqual([{ name: "钻石", limit: 5 }]);
  });

  it("a failed write keeps the previous value and the previous file", async () => {
    const path = join(folder, "test.json");
    const config = instance(path);
    await config.set({ name: "before", limit: 2 });
    await rm(path);
    await mkdir(path); // the target is now a folder: the rename must fail
    await expect(config.set({ name: "after", limit: 3 })).rejects.toThrow();
    expect(config.get()).toEqual({ name: "before", limit: 2 });
    expect((await readdir(folder)).filter((file) => file.endsWith(".tmp"))).toEqual([]);
  });

  it("reload re-reads the file after an external edit", async () => {
    const path = join(folder, "test.json");
    const config = instance(path);
    await config.reload();
    await writeFile(path, JSON.stringify({ name: "edited", limit: 9 }));
    expect(await config.reload()).toBe(true);
    expect(config.get()).toEqual({ name: "edited", limit: 9 });
  });

  it("a corrupt file is kept untouched and logged; the previous settings stay", async () => {
    const path = join(folder, "test.json");
    const logger = new MemoryLogger();
    const config = instance(path, logger);
    await config.set({ name: "good", limit: 4 });
    await writeFile(path, "{ not json");
    expect(await config.reload()).toBe(false);
    expect(config.get()).toEqual({ name: "good", limit: 4 });
    expect(await readFile(path, "utf8")).toBe("{ not json");
    expect(logger.has("is not valid JSON")).toBe(true);
  });

  it("an invalid file is kept and logged with the field", async () => {
    const path = join(folder, "test.json");
    const logger = new MemoryLogger();
    const config = instance(path, logger);
    await writeFile(path, JSON.stringify({ name: "x", limit: -1 }));
    expect(await config.reload()).toBe(false);
    expect(config.get()).toEqual(DEFAULTS);
    expect(await readFile(path, "utf8")).toBe(JSON.stringify({ name: "x", limit: -1 }));
    expect(logger.lines.some((line) => line.startsWith("ERROR") && line.includes("limit"))).toBe(true);
  });

  it("concurrent sets are applied in call order, so the value and the file agree", async () => {
    const path = join(folder, "test.json");
    const config = instance(path);
    await Promise.all(Array.from({ length: 20 }, (_, limit) => config.set({ name: "n", limit })));
    expect(config.get().limit).toBe(19);
    expect(JSON.parse(await readFile(path, "utf8")).limit).toBe(19);
  });

  it("a listener that throws is logged and never fails the write or the other listeners", async () => {
    const logger = new MemoryLogger();
    const config = instance(join(folder, "test.json"), logger);
    const seen: number[] = [];
    config.onChange(() => {
      throw new Error("listener bug");
    });
    config.onChange((value) => seen.push(value.limit));
    await config.set({ name: "x", limit: 7 });
    expect(seen).toEqual([7]);
    expect(config.get().limit).toBe(7);
    expect(logger.has("a change listener failed: listener bug")).toBe(true);
  });

  it("works in memory without a path", async () => {
    const config = new ConfigInstance({
      path: undefined,
      codec: SETTINGS,
      defaults: DEFAULTS,
      logger: new MemoryLogger(),
      name: "memory",
    });
    expect(await config.reload()).toBe(true);
    await config.set({ name: "m", limit: 0 });
    expect(config.get()).toEqual({ name: "m", limit: 0 });
  });
});

describe("ConfigInstance with onInvalid: refuse", () => {
  it("throws at the first load naming the file and the field, and never writes the file", async () => {
    const path = join(folder, "test.json");
    const text = JSON.stringify({ name: "x", limit: -1 });
    await writeFile(path, text);
    const config = refusing(path);
    const error = await config.reload().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptFileError);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain("limit:");
    await expect(config.set({ name: "y", limit: 1 })).rejects.toThrow(path);
    expect(await readFile(path, "utf8")).toBe(text);
  });

  it("throws at the first load of truncated JSON, file untouched", async () => {
    const path = join(folder, "test.json");
    await writeFile(path, '{"name": "x", "li');
    await expect(refusing(path).reload()).rejects.toThrow(`${path} is not valid JSON`);
    expect(await readFile(path, "utf8")).toBe('{"name": "x", "li');
  });

  it("a bad reload keeps the last good value, logs file and field, and refuses writes until fixed", async () => {
    const path = join(folder, "test.json");
    const logger = new MemoryLogger();
    const config = refusing(path, logger);
    await writeFile(path, JSON.stringify({ name: "good", limit: 4 }));
    expect(await config.reload()).toBe(true);
    await writeFile(path, JSON.stringify({ name: 7, limit: 4 }));
    expect(await config.reload()).toBe(false);
    expect(config.get()).toEqual({ name: "good", limit: 4 });
    expect(config.problem).toContain("name:");
    expect(
      logger.lines.some((line) => line.startsWith("ERROR") && line.includes(path) && line.includes("name:")),
    ).toBe(true);
    await expect(config.set({ name: "later", limit: 5 })).rejects.toBeInstanceOf(CorruptFileError);
    expect(await readFile(path, "utf8")).toBe(JSON.stringify({ name: 7, limit: 4 }));
    await writeFile(path, JSON.stringify({ name: "fixed", limit: 4 }));
    expect(await config.reload()).toBe(true);
    expect(config.problem).toBeUndefined();
    await config.set({ name: "later", limit: 5 });
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ name: "later", limit: 5 });
  });

  it("refuses a write before the first load, which could replace the file with defaults", async () => {
    const path = join(folder, "test.json");
    await writeFile(path, JSON.stringify({ name: "admin", limit: 3 }));
    await expect(refusing(path).set({ name: "x", limit: 0 })).rejects.toThrow(/not loaded/);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ name: "admin", limit: 3 });
  });

  it("still starts from the defaults (and writes them) when the file is missing", async () => {
    const path = join(folder, "test.json");
    const config = refusing(path);
    expect(await config.reload()).toBe(true);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual(DEFAULTS);
    await config.set({ name: "n", limit: 2 });
    expect(config.get()).toEqual({ name: "n", limit: 2 });
  });
});
