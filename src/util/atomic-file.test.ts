import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "./atomic-file.js";

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "system-atomic-"));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("writeFileAtomic", () => {
  it("replaces the content and leaves only the target", async () => {
    const path = join(folder, "a.json");
    await writeFileAtomic(path, "one");
    await writeFileAtomic(path, new TextEncoder().encode("两"));
    expect(await readFile(path, "utf8")).toBe("两");
    expect(await readdir(folder)).toEqual(["a.json"]);
  });

  it("writes chunks one after another", async () => {
    const path = join(folder, "chunks.json");
    function* chunks(): Generator<Uint8Array | string> {
      yield "[";
      yield new TextEncoder().encode('"两"');
      yield "]";
    }
    await writeFileAtomic(path, chunks());
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual(["两"]);
    expect(await readdir(folder)).toEqual(["chunks.json"]);
  });

  it("removes its temp file when the rename fails", async () => {
    const path = join(folder, "dir");
    await mkdir(path);
    await mkdir(join(path, "inside"));
    await expect(writeFileAtomic(path, "x")).rejects.toThrow();
    expect(await readdir(folder)).toEqual(["dir"]);
  });
});
