import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Json } from "../../../util/codec.js";
import {
  CARRIED,
  MAX_POINTS_ENTRIES,
  MAX_RECENT_IDS,
  PointsLedger,
  pointsLedgerStorage,
} from "./points-ledger.js";

const sum = (ledger: PointsLedger): number =>
  ledger.entries().reduce((total, entry) => total + entry.amount, 0);
const roundTrip = (ledger: PointsLedger): PointsLedger =>
  pointsLedgerStorage.create(JSON.parse(JSON.stringify(pointsLedgerStorage.encode(ledger))) as Json);

type Operation = { kind: "credit" | "debit"; id: string; amount: number };

const apply = (ledger: PointsLedger, operation: Operation, at: number): unknown =>
  operation.kind === "credit"
    ? ledger.credit(operation.id, operation.amount, "test", at)
    : ledger.debit(operation.id, operation.amount, "test", at);

describe("PointsLedger", () => {
  it("credits and debits by entry id: a repeated id changes nothing, a debit never goes below zero", () => {
    const ledger = new PointsLedger();
    expect(ledger.credit("a", 10, "check_in", 1)).toBe(true);
    expect(ledger.dirty).toBe(true);
    expect(ledger.credit("a", 10, "check_in", 2)).toBe(false);
    expect(ledger.debit("a", 5, "shop", 3)).toBe("duplicate");
    expect(ledger.debit("b", 11, "shop", 3)).toBe("insufficient");
    expect(ledger.has("b")).toBe(false);
    expect(ledger.debit("b", 4, "shop", 4)).toBe("done");
    expect(ledger.debit("b", 1, "shop", 5)).toBe("duplicate");
    expect(ledger.balance()).toBe(6);
    expect(ledger.entries()).toEqual([
      { id: "a", amount: 10, reason: "check_in", at: 1 },
      { id: "b", amount: -4, reason: "shop", at: 4 },
    ]);
  });

  it("marks itself dirty only on a real change and survives its codec", () => {
    const ledger = new PointsLedger();
    expect(ledger.debit("x", 1, "shop", 1)).toBe("insufficient");
    expect(ledger.dirty).toBe(false);
    ledger.credit("x", 3, "admin:Alex", 1);
    const loaded = roundTrip(ledger);
    expect(loaded.dirty).toBe(false);
    expect(loaded.credit("x", 3, "admin:Alex", 2)).toBe(false);
    expect(loaded.dirty).toBe(false);
    expect(loaded.balance()).toBe(3);
  });

  it("refuses amounts that are not positive integers and the reserved id", () => {
    const ledger = new PointsLedger();
    expect(() => ledger.credit("a", 0, "test", 1)).toThrow(RangeError);
    expect(() => ledger.credit("a", 1.5, "test", 1)).toThrow(RangeError);
    expect(() => ledger.debit("a", -1, "test", 1)).toThrow(RangeError);
    expect(() => ledger.credit(CARRIED, 1, "test", 1)).toThrow(RangeError);
    expect(ledger.dirty).toBe(false);
  });

  it("refuses stored data whose sum is negative", () => {
    expect(() =>
      pointsLedgerStorage.create({
        entries: [{ id: "a", amount: -1, reason: "x", at: 0 }],
        recentIds: ["a"],
      }),
    ).toThrow(/codec refuses/);
  });

  it("folds the oldest entries into one carried entry past the bound; recent ids stay deduplicated", () => {
    const ledger = new PointsLedger();
    for (let index = 0; index < MAX_POINTS_ENTRIES + 10; index++)
      ledger.credit(`c${index}`, 2, "test", index);
    const entries = ledger.entries();
    expect(entries).toHaveLength(MAX_POINTS_ENTRIES);
    expect(entries[0]).toEqual({ id: CARRIED, amount: 22, reason: CARRIED, at: 10 });
    expect(ledger.balance()).toBe(2 * (MAX_POINTS_ENTRIES + 10));
    expect(ledger.balance()).toBe(sum(ledger));
    // folded, but still known: replaying it changes nothing
    expect(ledger.credit("c0", 2, "test", 999)).toBe(false);
    for (let index = 0; index < MAX_RECENT_IDS; index++) ledger.credit(`d${index}`, 1, "test", 1_000 + index);
    expect(ledger.has("c0")).toBe(false);
    expect(ledger.has(`d${MAX_RECENT_IDS - 1}`)).toBe(true);
    expect(roundTrip(ledger).toData()).toEqual(ledger.toData());
  });

  it("keeps balance = sum of entries, never negative, and ignores replayed operations (property)", () => {
    const operation = fc.record({
      kind: fc.constantFrom<"credit" | "debit">("credit", "debit"),
      // few distinct ids: many duplicates
      id: fc.oneof(
        fc.integer({ min: 0, max: 40 }).map((n) => `id${n}`),
        fc.uuid(),
      ),
      amount: fc.integer({ min: 1, max: 1_000 }),
    });
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 700 }), fc.boolean(), (operations, reload) => {
        let ledger = new PointsLedger();
        operations.forEach((next, index) => {
          apply(ledger, next, index);
          expect(ledger.balance()).toBe(sum(ledger));
          expect(ledger.balance()).toBeGreaterThanOrEqual(0);
          expect(ledger.entries().length).toBeLessThanOrEqual(MAX_POINTS_ENTRIES);
          // the same operation again (a replay) changes nothing
          const before = ledger.toData();
          apply(ledger, next, index + 1);
          expect(ledger.toData()).toEqual(before);
          if (reload && index % 97 === 0) ledger = roundTrip(ledger);
        });
      }),
      { numRuns: 60 },
    );
  });
});
