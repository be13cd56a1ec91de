import { describe, expect, it } from "vitest";
import { AgentException } from "../../agent/agent-exception.js";
import { type State, State as States } from "../../agent/storage/state.js";
import { BoundedTable } from "./bounded-table.js";

const entry = (state: State) => ({ state });

describe("BoundedTable", () => {
  it("evicts the oldest terminal entries first and never an unfinished one", () => {
    const table = new BoundedTable<{ state: State }>("steps", { maxEntries: 3, maxBytes: 1000 });
    table.set("a", entry(States.RUNNING), 10);
    table.set("b", entry(States.DONE), 10);
    table.set("c", entry(States.SUCCEEDED), 10);
    expect(table.set("d", entry(States.QUEUED), 10)).toEqual(["b"]);
    expect(table.set("e", entry(States.QUEUED), 10)).toEqual(["c"]);
    expect([...table.entries()].map(([key]) => key)).toEqual(["a", "d", "e"]);
  });

  it("never evicts an UNCONFIRMED event an admin has not resolved yet", () => {
    const table = new BoundedTable<{ state: State }>("events", { maxEntries: 2, maxBytes: 1000 });
    table.set("held", entry(States.UNCONFIRMED), 10);
    table.set("done", entry(States.SUCCEEDED), 10);
    expect(table.set("new", entry(States.QUEUED), 10)).toEqual(["done"]);
    expect(() => table.set("more", entry(States.QUEUED), 10)).toThrow("STORAGE_FULL");
    expect(table.has("held")).toBe(true);
  });

  it("evicts by encoded bytes as well as by count", () => {
    const table = new BoundedTable<{ state: State }>("events", { maxEntries: 100, maxBytes: 100 });
    table.set("old", entry(States.FAILED), 40);
    table.set("mid", entry(States.WAITING), 40);
    table.set("new", entry(States.DONE), 10);
    expect(table.set("big", entry(States.QUEUED), 50)).toEqual(["old"]);
    expect(table.bytes).toBe(100);
  });

  it("reports STORAGE_FULL only when every entry is unfinished, and changes nothing then", () => {
    const table = new BoundedTable<{ state: State }>("steps", { maxEntries: 2, maxBytes: 1000 });
    table.set("a", entry(States.RUNNING), 10);
    table.set("b", entry(States.WAITING), 10);
    let thrown: unknown;
    try {
      table.set("c", entry(States.QUEUED), 10);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AgentException);
    expect((thrown as AgentException).failure().code).toBe("STORAGE_FULL");
    expect(table.size).toBe(2);
    expect(table.has("c")).toBe(false);
  });

  it("always stores an update of an existing entry (a DONE result after the effect)", () => {
    const table = new BoundedTable<{ state: State }>("steps", { maxEntries: 2, maxBytes: 20 });
    table.set("a", entry(States.RUNNING), 10);
    table.set("b", entry(States.RUNNING), 10);
    table.set("a", entry(States.DONE), 50, true);
    expect(table.get("a")?.state).toBe(States.DONE);
  });
});
