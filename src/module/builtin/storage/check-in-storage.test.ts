import { describe, expect, it } from "vitest";
import { Identifier } from "../../../util/identifier.js";
import { CheckInStorage, checkInStorage, MAX_DELIVERIES } from "./check-in-storage.js";

const BREAD = [{ item: "minecraft:bread", count: 3 }];

describe("CheckInStorage", () => {
  it("marks dirty only on a real change: a second check-in or delivery mark the same day writes nothing", () => {
    const storage = new CheckInStorage();
    expect(storage.checkIn("2026-12-02", "2026-12-01")).toBe(1);
    storage.putDelivery("2026-12-02", BREAD);
    const saved = checkInStorage(Identifier.parse("system:check_in"));
    const reloaded = saved.create(saved.encode(storage));
    expect(reloaded.dirty).toBe(false);
    expect(reloaded.checkIn("2026-12-02", "2026-12-01")).toBeUndefined();
    reloaded.putDelivery("2026-12-02", BREAD);
    reloaded.markGiven("2026-12-02", 0);
    expect(reloaded.dirty).toBe(false);
    expect(reloaded.markDelivered("2026-12-02")).toBe(true);
    expect(reloaded.dirty).toBe(true);
    const again = saved.create(saved.encode(reloaded));
    expect(again.markDelivered("2026-12-02")).toBe(false);
    expect(again.nextAttempt("2026-12-02")).toBeUndefined();
    expect(again.dirty).toBe(false);
  });

  it("holds an UNCONFIRMED delivery across a reload until a redelivery marks it delivered", () => {
    const storage = new CheckInStorage();
    storage.putDelivery("2026-12-02", BREAD);
    expect(storage.markUnconfirmed("2026-12-02")).toBe(true);
    expect(storage.markUnconfirmed("2026-12-02")).toBe(false);
    const saved = checkInStorage(Identifier.parse("system:check_in"));
    const reloaded = saved.create(saved.encode(storage));
    expect(reloaded.delivery("2026-12-02")?.state).toBe("UNCONFIRMED");
    expect(reloaded.markDelivered("2026-12-02")).toBe(true);
    expect(reloaded.markUnconfirmed("2026-12-02")).toBe(false);
  });

  it("continues a streak only from the previous day and returns copies of deliveries", () => {
    const storage = new CheckInStorage();
    storage.checkIn("2026-12-01", "2026-11-30");
    expect(storage.checkIn("2026-12-02", "2026-12-01")).toBe(2);
    expect(storage.checkIn("2026-12-04", "2026-12-03")).toBe(1);
    storage.putDelivery("2026-12-04", BREAD);
    const copy = storage.delivery("2026-12-04");
    copy?.items.push({ item: "minecraft:diamond", count: 64 });
    expect(storage.delivery("2026-12-04")?.items).toEqual(BREAD);
  });

  it("keeps at most MAX_DELIVERIES records, evicting delivered ones first, and refuses when all are pending", () => {
    const storage = new CheckInStorage();
    const day = (index: number) => new Date(Date.UTC(2026, 0, 1 + index)).toISOString().slice(0, 10);
    for (let index = 0; index < MAX_DELIVERIES; index++) storage.putDelivery(day(index), BREAD);
    expect(() => storage.putDelivery(day(MAX_DELIVERIES), BREAD)).toThrow(/STORAGE_FULL|storage/i);
    storage.markDelivered(day(3));
    storage.putDelivery(day(MAX_DELIVERIES), BREAD);
    expect(storage.delivery(day(3))).toBeUndefined();
    expect(storage.delivery(day(0))?.state).toBe("PENDING");
  });
});
