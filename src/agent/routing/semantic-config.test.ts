import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryLogger } from "../../util/logger.js";
import { DEFAULT_SEMANTIC_SETTINGS, SemanticConfig } from "./semantic-config.js";

let folder: string | undefined;
afterEach(async () => {
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

describe("SemanticConfig", () => {
  it("writes the defaults when missing, fills omitted fields and keeps the last good value on bad input", async () => {
    folder = await mkdtemp(join(tmpdir(), "semantic-"));
    const path = join(folder, "system-semantic.json");
    const config = new SemanticConfig(path, new MemoryLogger());
    expect(await config.reload()).toBe(true);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ minSimilarity: 0.3, minMargin: 0.05 });

    await writeFile(path, JSON.stringify({ minSimilarity: 0.8 }));
    expect(await config.reload()).toBe(true);
    expect(config.get()).toMatchObject({ ...DEFAULT_SEMANTIC_SETTINGS, minSimilarity: 0.8 });

    await writeFile(path, JSON.stringify({ minSimilarity: 2 }));
    expect(await config.reload()).toBe(false);
    expect(config.get().minSimilarity).toBe(0.8);
  });
});
