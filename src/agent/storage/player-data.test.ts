import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { DataStorage, ModuleStorage } from "./module-storage.js";
import { emptyPlayerRecord, ModuleData, PlayerData, type PlayerRecord } from "./player-data.js";

class CheckIn extends DataStorage<{ days: number[]; state: string }> {
  readonly #days: Set<number>;
  #state: string;
  constructor(data?: { days: number[]; state: string }) {
    super();
    this.#days = new Set(data?.days ?? []);
    this.#state = data?.state ?? "open";
  }
  claim(day: number): boolean {
    if (this.#days.has(day)) return false;
    this.#days.add(day);
    this.markDirty();
    return true;
  }
  setState(state: string): void {
    if (state === this.#state) return;
    this.#state = state;
    this.markDirty();
  }
  toData() {
    return { days: [...this.#days], state: this.#state };
  }
}

const CHECK_IN = ModuleStorage.of({
  owner: Identifier.parse("system:check_in"),
  type: "days",
  codecId: Identifier.parse("system:check_in_days"),
  codec: codec(z.object({ days: z.array(z.number()), state: z.string() })),
  factory: (data) => new CheckIn(data),
});

const PLAYER = "0f8fad5b-d9cb-469f-a165-70867728950e";

describe("PlayerData", () => {
  it("changes only on a real change: a repeated claim or the same state is not a change", () => {
    const data = new PlayerData(emptyPlayerRecord(PLAYER));
    expect(ModuleData.get(data, CHECK_IN).claim(1)).toBe(true);
    const record = data.toRecord();
    const again = new PlayerData(record);
    const storage = ModuleData.get(again, CHECK_IN);
    expect(storage.claim(1)).toBe(false);
    storage.setState("open");
    again.setPreferences({ history: true, external: true });
    expect(again.changed).toBe(true);
    const third = new PlayerData(again.toRecord());
    third.setPreferences({ history: true, external: true });
    ModuleData.get(third, CHECK_IN).setState("open");
    expect(third.changed).toBe(false);
  });

  it("keeps data of features that are not installed untouched, keyed by owner then type", () => {
    const record: PlayerRecord = {
      ...emptyPlayerRecord(PLAYER),
      moduleData: { "other:shop": { orders: { codec: "other:orders_v1", data: { open: [1] } } } },
    };
    const data = new PlayerData(record);
    ModuleData.get(data, CHECK_IN).claim(3);
    expect(data.toRecord().moduleData).toEqual({
      "other:shop": { orders: { codec: "other:orders_v1", data: { open: [1] } } },
      "system:check_in": { days: { codec: "system:check_in_days", data: { days: [3], state: "open" } } },
    });
  });

  it("materialises storages from a copy, so mutating one never reaches the record it came from", () => {
    const record: PlayerRecord = {
      ...emptyPlayerRecord(PLAYER),
      moduleData: {
        "system:check_in": { days: { codec: "system:check_in_days", data: { days: [1], state: "open" } } },
      },
    };
    const data = new PlayerData(record);
    ModuleData.get(data, CHECK_IN).claim(2);
    expect(record.moduleData["system:check_in"]?.days?.data).toEqual({ days: [1], state: "open" });
  });
});
