import { describe, expect, it } from "vitest";
import { LineBatcher } from "./logger.js";

describe("LineBatcher", () => {
  it("writes the lines of one turn once, in order, after the turn", async () => {
    const writes: string[] = [];
    const lines = new LineBatcher((chunk) => writes.push(chunk));
    lines.push("one");
    lines.push("two");
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(["one\ntwo\n"]);
    lines.push("three");
    await expect.poll(() => writes).toEqual(["one\ntwo\n", "three\n"]);
  });

  it("writes what waits at once on flush, and nothing twice", () => {
    const writes: string[] = [];
    const scheduled: (() => void)[] = [];
    const lines = new LineBatcher(
      (chunk) => writes.push(chunk),
      (flush) => scheduled.push(flush),
    );
    lines.push("a");
    lines.push("b");
    expect(scheduled).toHaveLength(1);
    lines.flush();
    expect(writes).toEqual(["a\nb\n"]);
    for (const flush of scheduled) flush();
    expect(writes).toEqual(["a\nb\n"]);
    lines.push("c");
    expect(scheduled).toHaveLength(2);
  });
});
