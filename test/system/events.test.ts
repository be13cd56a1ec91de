import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  advancementRule,
  held,
  joinPlayer,
  quitAndWait,
  type ShippedServer,
  settled,
  startShipped,
  uuidOf,
  waitFor,
} from "./system-support.js";

const rule = (
  id: string,
  event: string,
  workflow: string,
  input: unknown,
  repeat: "once" | "daily" = "once",
) => advancementRule(id, event, {}, workflow, input, repeat);

/**
 * Game events and advancement rules on the shipped server: `config/system/advancements.json` decides which
 * workflow a game event starts (both keys: the rule names it, the workflow allows the event). The default rule
 * welcomes a player on their first join with a starter kit, once; an invalid rule and a rule naming a workflow
 * that does not allow events are refused while the others apply; `/system reload` adds a rule.
 */
describe("game events and advancement rules (shipped server)", () => {
  let server: ShippedServer;

  beforeAll(async () => {
    server = await startShipped({
      ops: ["Admin"],
      files: {
        "config/system/advancements.json": JSON.stringify({
          rules: [
            rule("welcome", "system:first_join", "system:welcome", {
              items: [
                { item: "minecraft:bread", count: 8 },
                { item: "minecraft:torch", count: 16 },
              ],
            }),
            rule("bad", "system:teleported", "system:welcome", {}),
            rule("items", "system:first_join", "system:item_query", {}),
          ],
        }),
      },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("refuses an invalid rule and one whose workflow does not allow the event, naming rule and field; the others apply", () => {
    expect(
      server.logger.has("advancement rule bad: trigger.event: unknown event system:teleported; refused"),
    ).toBe(true);
    expect(
      server.logger.has(
        "advancement rule items: action.workflow: system:item_query does not allow system:first_join events; refused",
      ),
    ).toBe(true);
  });

  it("welcomes a player on their first join with the starter kit, once; joining again gives nothing", async () => {
    let newbie = await joinPlayer(server.port, "Newbie");
    const welcome = await newbie.next((m) => m.text.startsWith("Welcome to the server, Newbie!"));
    expect(welcome.text).toContain("Bread × 8");
    expect(welcome.text).toContain("Torch × 16");
    await waitFor(() => (held(newbie, "bread") === 8 && held(newbie, "torch") === 16 ? true : undefined));
    await quitAndWait(server, newbie, "Newbie");
    newbie = await joinPlayer(server.port, "Newbie");
    try {
      await settled(server, newbie);
      // the journal holds one welcome task for the player: the second join queued none
      const tasks = server.system.assistant.events.recent(100, uuidOf(server.system, "Newbie"));
      expect(tasks.filter((task) => task.type === "system:welcome")).toHaveLength(1);
      expect(newbie.chat.filter((m) => m.text.startsWith("Welcome")).length).toBe(0);
      expect(held(newbie, "bread")).toBe(8);
    } finally {
      newbie.quit();
    }
  });

  it("applies a rule added to the file at /system reload", async () => {
    const file = join(server.folder, "config", "system", "advancements.json");
    const current = JSON.parse(readFileSync(file, "utf8")) as { rules: unknown[] };
    writeFileSync(
      file,
      JSON.stringify({
        rules: [...current.rules, rule("greet", "system:join", "system:welcome", { items: [] }, "daily")],
      }),
    );
    const admin = await joinPlayer(server.port, "Admin");
    try {
      const reloaded = await admin.say("/system reload", (m) => m.text.startsWith("Reloaded"));
      expect(reloaded.text).toContain("advancements");
      const guest = await joinPlayer(server.port, "Guest");
      try {
        // a first join: the kit once, and the daily greeting
        await guest.next((m) => m.text.startsWith("Welcome to the server, Guest!"));
        await guest.next((m) => m.text === "Welcome, Guest!");
      } finally {
        guest.quit();
      }
    } finally {
      admin.quit();
    }
  });
});
