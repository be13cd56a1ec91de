import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** The files docs/extending.md quotes: the example extension and the context-event fixture. */
const SOURCES = [
  "examples/greeter/index.ts",
  "examples/greeter/greet.ts",
  "examples/greeter/gift.ts",
  "examples/greeter/package.json",
  "examples/greeter/pack/data/greeter/system_module/greeter.json",
  "examples/greeter/pack/assets/greeter/lang/en_us.json",
  "test/fixtures/extensions/hello/index.ts",
].map((path) => readFileSync(join(process.cwd(), path), "utf8"));

/** The ```ts blocks of the guide, except those marked `<!-- sketch -->` on the line before. */
const codeBlocks = (text: string): string[] =>
  [...text.matchAll(/(<!-- sketch -->\n)?```ts\n([\s\S]*?)\n```/g)]
    .filter((match) => match[1] === undefined)
    .map((match) => match[2] ?? "");

describe("docs/extending.md", () => {
  const guide = readFileSync(join(process.cwd(), "docs", "extending.md"), "utf8");

  it("shows the real example code: every TypeScript block is in an example file", () => {
    const blocks = codeBlocks(guide);
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    expect(blocks.filter((block) => !SOURCES.some((source) => source.includes(block)))).toEqual([]);
  });

  it("quotes the example's package and data files as they are", () => {
    for (const source of SOURCES.slice(3, 6)) expect(guide).toContain(source.trimEnd());
  });

  it("is linked from the README", () => {
    expect(readFileSync(join(process.cwd(), "README.md"), "utf8")).toContain("docs/extending.md");
  });
});
