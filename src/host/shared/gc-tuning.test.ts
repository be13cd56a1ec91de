import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HEAP_GROWING_PERCENT, tuneGarbageCollector, YOUNG_GENERATION_FLAG } from "./gc-tuning.js";

describe("tuneGarbageCollector", () => {
  it("sets V8's heap growing factor to 50%", () => {
    const set: string[] = [];
    expect(tuneGarbageCollector([], (flags) => set.push(flags))).toBe("--heap-growing-percent=50");
    expect(HEAP_GROWING_PERCENT).toBe(50);
    expect(set).toEqual(["--heap-growing-percent=50"]);
  });

  it("leaves a factor node was started with alone", () => {
    for (const given of [
      "--heap-growing-percent=20",
      "--heap_growing_percent=80",
      "--heap-growing-percent",
    ]) {
      const set: string[] = [];
      expect(tuneGarbageCollector(["--max-semi-space-size=16", given], (flags) => set.push(flags))).toBe(
        undefined,
      );
      expect(set).toEqual([]);
    }
  });
});

describe("npm start", () => {
  it("gives node 16 MB semi-spaces", () => {
    const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> })
      .scripts;
    expect(YOUNG_GENERATION_FLAG).toBe("--max-semi-space-size=16");
    expect(scripts.start).toBe(`exec node ${YOUNG_GENERATION_FLAG} --import tsx src/main.ts`);
  });
});
