import { describe, expect, it } from "vitest";
import { grantExperience, levelOfPoints, pointsAtLevel } from "./experience.js";

describe("experience", () => {
  it("follows the vanilla level thresholds", () => {
    expect([0, 1, 16, 17, 30, 31, 32].map(pointsAtLevel)).toEqual([0, 7, 352, 394, 1395, 1507, 1628]);
    expect(levelOfPoints(0)).toBe(0);
    expect(levelOfPoints(6)).toBe(0);
    expect(levelOfPoints(7)).toBe(1);
    expect(levelOfPoints(1395)).toBe(30);
  });

  it("adds points, then whole levels keeping the progress into the level", () => {
    expect(grantExperience(0, { points: 10, levels: 0 })).toBe(10);
    expect(grantExperience(0, { points: 0, levels: 3 })).toBe(27);
    // level 1 + 3 points in, plus 2 levels: level 3 + 3 points
    expect(grantExperience(10, { points: 0, levels: 2 })).toBe(27 + 3);
    expect(levelOfPoints(grantExperience(100, { points: 50, levels: 5 }))).toBe(levelOfPoints(150) + 5);
  });
});
