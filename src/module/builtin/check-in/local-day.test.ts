import { describe, expect, it } from "vitest";
import { isTimeZone, localDay, previousDay } from "./local-day.js";

describe("localDay", () => {
  it("counts the calendar day of the configured zone, not UTC", () => {
    const instant = Date.UTC(2026, 11, 2, 16, 30);
    expect(localDay(instant, "UTC")).toBe("2026-12-02");
    expect(localDay(instant, "Asia/Shanghai")).toBe("2026-12-03");
    expect(localDay(instant, "America/New_York")).toBe("2026-12-02");
  });

  it("steps back over month and year ends, and knows zone names", () => {
    expect(previousDay("2027-01-01")).toBe("2026-12-31");
    expect(previousDay("2028-03-01")).toBe("2028-02-29");
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});
