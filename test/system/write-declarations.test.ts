import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directRefusal } from "../../src/agent/routing/direct-qualification.js";
import { joinPlayer, type Player, type ShippedServer, startShipped } from "./system-support.js";

const REPEAT = /↻ This repeats the answer given \d+ s ago/;

/**
 * The shipped server (startSystem, web panel on, no model) against the workflows' write declarations: every
 * workflow that changes state says so (the panel's bind included), none of them is reachable by a read route, a
 * repeated confirmation is answered by its stored answer marked as a repeat, and an admin's repeated reload runs
 * again.
 */
describe("workflows declare their writes and every consumer honours it (shipped server, real bots)", () => {
  let server: ShippedServer;
  const players: Player[] = [];

  beforeAll(async () => {
    server = await startShipped({ ops: ["Admin"] });
  }, 120_000);

  afterAll(async () => {
    for (const player of players) player.quit();
    await server?.close();
  });

  const enter = async (name: string): Promise<Player> => {
    const player = await joinPlayer(server.port, name);
    players.push(player);
    return player;
  };

  it("declares every write of the running assembly and routes none of them directly", () => {
    const engine = server.system.assistant.infrastructure.engine;
    const registry = engine.modules();
    const byId = new Map(registry.values().map((module) => [module.id.toString(), module]));
    for (const id of ["system:panel_bind", "system:panel_unbind", "system:mode", "system:settings"])
      expect(byId.get(id)?.writes, id).toBe("state");
    for (const module of registry.values())
      if (module.writes !== "none")
        expect(
          directRefusal(module, registry.routing(module.id), engine.policyOf(module)),
          module.id.toString(),
        ).toBeDefined();
  });

  it("answers a second click of Confirm with the stored answer, marked; charges once", async () => {
    const admin = await enter("Admin");
    const steve = await enter("Steve");
    await admin.say("/system points give Steve 100", (m) => /Steve/.test(m.text));
    const quote = await steve.say("/system buy bread 2", (m) => m.text.startsWith("Quote"));
    const [confirm] = quote.clicks;
    const placed = await steve.say(confirm as string, (m) => /Order/.test(m.text));
    expect(placed.text).toMatch(/^Order [0-9a-f]{8} confirmed/);
    expect(placed.text).not.toMatch(REPEAT);
    // the delivery's own notice ("Order … delivered") may arrive after the confirmation: the answer to the second
    // click is the confirmation card again
    const again = await steve.say(confirm as string, (m) => /Order [0-9a-f]{8} confirmed/.test(m.text));
    expect(again.text).toMatch(REPEAT);
    const balance = await steve.say("/system balance", (m) => /^Your points/.test(m.text));
    expect(balance.text).toMatch(/^Your points: 96\n/);
  });

  it("runs an admin's repeated reload again, and never checks a player in from plain text without a model", async () => {
    const admin = players.find((player) => player.bot.username === "Admin") ?? (await enter("Admin"));
    const first = await admin.say("/system reload", (m) => /Reloaded/.test(m.text));
    const second = await admin.say("/system reload", (m) => /Reloaded/.test(m.text) && m !== first);
    expect(second.text).not.toMatch(REPEAT);
    const alex = await enter("Alex");
    const reply = await alex.say("/system daily check in", (m) => m.text.length > 0);
    expect(reply.text).not.toMatch(/Checked in!/);
  });
});
