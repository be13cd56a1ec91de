import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** The most lines a source file under src/ may have (design: split a file along a seam before it grows past). */
const MAX_LINES = 400;

/**
 * Files still over MAX_LINES, each to be split; an entry is removed once its file is back under the limit (the
 * second test fails on a stale entry).
 */
const OVER_LIMIT: readonly string[] = [];

const sources = (folder: string): string[] =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });

/** Lines as `wc -l` counts them (a final line without a newline still counts). */
const lineCount = (file: string): number => {
  const text = readFileSync(file, "utf8");
  if (text.length === 0) return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
};

describe("file size", () => {
  const sizes = sources("src").map((file) => ({ file: file.split("\\").join("/"), lines: lineCount(file) }));

  it(`no source file under src/ has more than ${MAX_LINES} lines, outside the allow-list`, () => {
    const over = sizes
      .filter((entry) => entry.lines > MAX_LINES && !OVER_LIMIT.includes(entry.file))
      .map((entry) => `${entry.file}: ${entry.lines} lines`);
    expect(over).toEqual([]);
  });

  it("every allow-listed file exists and is still over the limit", () => {
    const over = new Set(sizes.filter((entry) => entry.lines > MAX_LINES).map((entry) => entry.file));
    expect(OVER_LIMIT.filter((file) => !over.has(file))).toEqual([]);
  });
});
