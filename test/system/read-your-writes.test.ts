import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  held,
  joinPlayer,
  type Player,
  type ShippedServer,
  startShipped,
  waitFor,
} from "./system-support.js";

/**
 * A player reads their own writes: a request admitted after a write of theirs completed sees it, even when the
 * same read was answered a moment before the write (the answer of a finished read is never shared past a write).
 */
describe("a player reads their own writes (shipped server)", () => {
  let server: ShippedServer;
  let admin: Player;

  beforeAll(async () => {
    server = await startShipped({ ops: ["Admin"] });
    admin = await joinPlayer(server.port, "Admin");
  }, 120_000);

  afterAll(async () => {
    admin?.quit();
    await server?.close();
  });

  it("shows the debited balance right after the items of an order arrive", async () => {
    const steve = await joinPlayer(server.port, "Steve");
    try {
      await admin.say("/system points give Steve 100", (m) => /Steve/.test(m.text));
      for (let round = 1; round <= 3; round += 1) {
        const before = 100 - 2 * (round - 1);
        const asked = await steve.say("/system balance", (m) => m.text.startsWith("Your points"));
        expect(asked.text).toContain(`Your points: ${before}`);
        const quote = await steve.say("/system buy bread 1", (m) => m.text.startsWith("Quote"));
        const [confirm] = quote.clicks;
        expect(confirm).toBeDefined();
        await steve.say(confirm as string, (m) => /Order/.test(m.text));
        await waitFor(() => (held(steve, "bread") === round ? true : undefined));
        const after = await steve.say("/system balance", (m) => m.text.startsWith("Your points"));
        expect(after.text).toContain(`Your points: ${before - 2}`);
        expect(after.text).toContain("-2");
      }
      // the orders list (another reader of the same player data) agrees
      const orders = await steve.say("/system orders", (m) => m.text.startsWith("Your orders"));
      expect(orders.text).toContain("Balance: 94 points.");
      // a write by someone else (an admin's grant) is seen as soon as it is confirmed
      await admin.say("/system points give Steve 6", (m) => /Steve/.test(m.text));
      const granted = await steve.say("/system balance", (m) => m.text.startsWith("Your points"));
      expect(granted.text).toContain("Your points: 100");
    } finally {
      steve.quit();
    }
  }, 120_000);

  it("shows the debited balance when no balance was asked before", async () => {
    const alex = await joinPlayer(server.port, "Alex");
    try {
      await admin.say("/system points give Alex 100", (m) => /Alex/.test(m.text));
      for (let round = 1; round <= 3; round += 1) {
        const quote = await alex.say("/system buy bread 1", (m) => m.text.startsWith("Quote"));
        await alex.say(quote.clicks[0] as string, (m) => /Order/.test(m.text));
        await waitFor(() => (held(alex, "bread") === round ? true : undefined));
        const after = await alex.say("/system balance", (m) => m.text.startsWith("Your points"));
        expect(after.text).toContain(`Your points: ${100 - 2 * round}`);
        const orders = await alex.say("/system orders", (m) => m.text.startsWith("Your orders"));
        expect(orders.text).toContain(`Balance: ${100 - 2 * round} points.`);
      }
    } finally {
      alex.quit();
    }
  }, 120_000);
});
