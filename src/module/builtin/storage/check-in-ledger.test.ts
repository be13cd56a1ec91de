import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CheckInLedger } from "./check-in-ledger.js";

const STEVE = "0f8fad5b-d9cb-469f-a165-70867728950e";
const ALEX = "5c4a8b3e-1f2d-4e6a-9b7c-0d1e2f3a4b5c";

let folder: string | undefined;
afterEach(async () => {
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

const ledgerPath = async (): Promise<string> => {
  folder = await mkdtemp(join(tmpdir(), "system-ledger-"));
  return join(folder, "system", "check-in-ledger.json");
};

describe("CheckInLedger", () => {
  it("claims a player's day once, also after a restart, and drops days before the kept one", async () => {
    const path = await ledgerPath();
    const ledger = new CheckInLedger(path);
    expect(await ledger.claim(STEVE, "2026-12-01", "2026-11-30")).toBe(true);
    expect(await ledger.claim(STEVE, "2026-12-01", "2026-11-30")).toBe(false);
    expect(await ledger.claim(ALEX, "2026-12-01", "2026-11-30")).toBe(true);

    const restarted = new CheckInLedger(path);
    expect(await restarted.claim(STEVE, "2026-12-01", "2026-11-30")).toBe(false);
    expect(await restarted.claimed(ALEX, "2026-12-01")).toBe(true);
    expect(await restarted.claim(STEVE, "2026-12-03", "2026-12-02")).toBe(true);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({
      format: 1,
      days: { "2026-12-03": [STEVE] },
      standings: { "2026-12-03": { [STEVE]: [1, 1] } },
    });
  });

  it("keeps the streak and total each claim made, so a player whose file lost them carries on", async () => {
    const path = await ledgerPath();
    const ledger = new CheckInLedger(path);
    expect(await ledger.latest(STEVE)).toBeUndefined();
    await ledger.claim(STEVE, "2026-12-01", "2026-11-30", { streak: 6, total: 20 });
    await ledger.claim(STEVE, "2026-12-02", "2026-12-01", { streak: 7, total: 21 });
    expect(await new CheckInLedger(path).latest(STEVE)).toEqual({ day: "2026-12-02", streak: 7, total: 21 });
    // a file of an earlier build holds no standings: the day alone is known
    await writeFile(path, JSON.stringify({ format: 1, days: { "2026-12-02": [STEVE] } }));
    expect(await new CheckInLedger(path).latest(STEVE)).toEqual({ day: "2026-12-02", streak: 1, total: 1 });
  });

  it("serialises concurrent claims of the same day: exactly one wins", async () => {
    const ledger = new CheckInLedger(await ledgerPath());
    const claims = await Promise.all(
      Array.from({ length: 5 }, () => ledger.claim(STEVE, "2026-12-02", "2026-12-01")),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it("refuses a damaged file by name and never overwrites it", async () => {
    const path = await ledgerPath();
    await new CheckInLedger(path).claim(STEVE, "2026-12-02", "2026-12-01");
    await writeFile(path, "{ not json");
    const ledger = new CheckInLedger(path);
    await expect(ledger.claim(ALEX, "2026-12-02", "2026-12-01")).rejects.toThrow(/check-in-ledger\.json/);
    expect(await readFile(path, "utf8")).toBe("{ not json");
    await writeFile(path, JSON.stringify({ format: 9, days: {} }));
    await expect(new CheckInLedger(path).claimed(ALEX, "2026-12-02")).rejects.toThrow(/format 9/);
  });
});
