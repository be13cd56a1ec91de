import { describe, expect, it } from "vitest";
import { GroupCommit } from "./group-commit.js";

describe("GroupCommit", () => {
  it("groups concurrent submissions, runs commits at once, and keeps one key's operations in order", async () => {
    const commits: string[][] = [];
    const release: (() => void)[] = [];
    const group = new GroupCommit<{ key: string; value: number }, number>(
      async (ops) => {
        commits.push(ops.map((op) => `${op.key}${op.value}`));
        await new Promise<void>((resolve) => release.push(resolve));
        return ops.map((op) => op.value);
      },
      { key: (op) => op.key, concurrency: 2 },
    );
    const first = [group.submit({ key: "a", value: 1 }), group.submit({ key: "b", value: 1 })];
    await Promise.resolve();
    expect(commits).toEqual([["a1", "b1"]]);
    const second = [group.submit({ key: "a", value: 2 }), group.submit({ key: "c", value: 1 })];
    await new Promise((resolve) => setImmediate(resolve));
    // a2 waits for the commit holding a1; c1 goes at once in a second commit
    expect(commits).toEqual([["a1", "b1"], ["c1"]]);
    release.shift()?.();
    expect(await Promise.all(first)).toEqual([1, 1]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(commits).toEqual([["a1", "b1"], ["c1"], ["a2"]]);
    for (const wake of release.splice(0)) wake();
    await new Promise((resolve) => setImmediate(resolve));
    for (const wake of release.splice(0)) wake();
    expect(await Promise.all(second)).toEqual([2, 1]);
    await group.drain();
  });

  it("fails every operation of a commit that throws, and one operation whose result is an Error", async () => {
    let calls = 0;
    const group = new GroupCommit<string, string>(
      async (ops) => {
        calls++;
        if (calls === 1) throw new Error("connection lost");
        return ops.map((op) => (op === "bad" ? new Error("refused") : op));
      },
      { key: (op) => op },
    );
    const lost = await Promise.allSettled([group.submit("x"), group.submit("y")]);
    expect(lost.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    const mixed = await Promise.allSettled([group.submit("ok"), group.submit("bad")]);
    expect(mixed.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected"]);
  });
});
