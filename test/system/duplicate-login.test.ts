import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinPlayer, type ShippedServer, settled, startShipped, waitFor } from "./system-support.js";

/**
 * The same player connecting twice (a client that reconnects before its dead connection timed out): as in
 * vanilla, the older connection is closed with a message, and its leave ends nothing of the new session, which
 * still gets its notices (a check-in reward delivered to it).
 */
describe("a second connection of the same player (shipped server)", () => {
  let server: ShippedServer;

  beforeAll(async () => {
    server = await startShipped();
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("closes the older connection and keeps the new session whole", async () => {
    const observer = await joinPlayer(server.port, "Watcher");
    const first = await joinPlayer(server.port, "Twin");
    let reason = "";
    first.bot.once("kicked", (text) => {
      reason = typeof text === "string" ? text : JSON.stringify(text);
    });
    const second = await joinPlayer(server.port, "Twin");
    try {
      await waitFor(() => (reason !== "" ? true : undefined));
      expect(reason).toContain("You logged in from another location.");
      // the older connection's leave has run, then the new one's join: it is online for the assistant
      await settled(server, second);
      const checkIn = await second.say("/system checkin", (m) => m.text.startsWith("Checked in!"));
      expect(checkIn.text).toContain("Streak: 1 day");
      await second.next((m) => m.text.startsWith("Your check-in reward has arrived"));
      expect(server.system.host.players().filter((player) => player.name === "Twin").length).toBe(1);
      // the older connection left before the newer one logged in (and read the player's data): the others saw
      // Twin leave, then join, and Twin stays on their player list
      const seen = observer.chat.map((m) => m.text).filter((text) => text.startsWith("Twin "));
      expect(seen).toEqual(["Twin joined the game.", "Twin left the game.", "Twin joined the game."]);
      await waitFor(() => (observer.bot.players.Twin !== undefined ? true : undefined));
    } finally {
      first.quit();
      second.quit();
      observer.quit();
    }
  }, 60_000);
});
