import { describe, expect, it } from "vitest";
import { conditionsHold } from "./advancement-rules.js";

describe("advancement rule conditions", () => {
  it("hold when every given condition holds: numbers are thresholds, ids compare without case", () => {
    expect(conditionsHold({}, { streak: 1 })).toBe(true);
    expect(conditionsHold({ streak: 7 }, { streak: 6 })).toBe(false);
    expect(conditionsHold({ streak: 7 }, { streak: 7 })).toBe(true);
    expect(conditionsHold({ streak: 7 }, { streak: 30 })).toBe(true);
    expect(conditionsHold({ entity: "minecraft:zombie" }, { entity: "minecraft:Zombie" })).toBe(true);
    expect(conditionsHold({ entity: "minecraft:zombie" }, { entity: "minecraft:skeleton" })).toBe(false);
    expect(conditionsHold({ quest: "2100000000000001" }, { quest: "2100000000000001" })).toBe(true);
    // a condition on data the event does not carry never holds
    expect(conditionsHold({ minutes: 5 }, {})).toBe(false);
    expect(conditionsHold({ dimension: "minecraft:the_nether" }, { dimension: 3 })).toBe(false);
    expect(conditionsHold({ streak: 7 }, { streak: "7" })).toBe(false);
  });
});
