import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinPlayer, type Player, type ShippedServer, startShipped } from "./system-support.js";

/**
 * Offline mode does not check names: a server reachable from other machines says so at start, and operators
 * get admin commands (System's and the game's own) only after proving they can read the server console.
 */
describe("offline mode off loopback", () => {
  let server: ShippedServer;
  let admin: Player;
  let code: string;

  beforeAll(async () => {
    server = await startShipped({
      files: {
        "config/system/server.json": JSON.stringify({
          host: "0.0.0.0",
          generation: "superflat",
          ops: ["Admin"],
        }),
      },
    });
    code = /\/system verify (\S+)/.exec(server.logger.lines.join("\n"))?.[1] ?? "";
    admin = await joinPlayer(server.port, "Admin");
  }, 120_000);

  afterAll(async () => {
    admin?.quit();
    await server?.close();
  });

  it("warns loudly at start and prints a one-run admin code on the console", () => {
    expect(server.logger.lines.some((line) => line.startsWith("WARN OFFLINE MODE on 0.0.0.0"))).toBe(true);
    expect(code).toMatch(/^[A-Z2-9]{10}$/);
  });

  it("gives an unverified operator no admin commands and tells them how to verify", async () => {
    await admin.next((m) => m.text.includes("/system verify <code>"));
    const refused = await admin.say("/system grant Steve", (m) => /Unknown command|granted/.test(m.text));
    expect(refused.text).toBe("⚠ Unknown command: grant");
    // nor the game's own operator commands: anyone may join under an operator's name
    const summon = await admin.say("/summon zombie", (m) => /permission|Summoned/.test(m.text));
    expect(summon.text).toContain("You do not have permission to use this command");
    const wrong = await admin.say("/system verify WRONGCODE1", (m) => /admin code/.test(m.text));
    expect(wrong.text).toContain("That is not this server's admin code.");
  });

  it("turns admin commands on once the operator types the console's code, remembered by UUID", async () => {
    const ok = await admin.say(`/system verify ${code}`, (m) => /Verified/.test(m.text));
    expect(ok.text).toContain("admin commands are on");
    const usage = await admin.say("/system usage", (m) => /usage|No model usage/i.test(m.text));
    expect(usage.text).toContain("No model usage recorded.");
    const summon = await admin.say("/summon zombie", (m) => /Summoned|permission/.test(m.text));
    expect(summon.text).toBe("Summoned zombie");
    const again = await admin.say(`/system verify ${code}`, (m) => /already/.test(m.text));
    expect(again.text).toContain("already verified");
  });
});
