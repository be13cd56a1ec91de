import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SquidPlayer, SquidServer } from "../../src/host/flying-squid/flying-squid-types.js";
import { type ChatMessage, command, recordChat } from "../e2e/assistant-support.js";
import { grantAdvancement } from "../support/vanilla-backend-stand-in.js";
import {
  type GatewayUnderTest,
  joinBot,
  type PlainBackend,
  startGatewayFor,
  startPlainBackend,
  tempFolder,
  waitFor,
} from "./gateway-support.js";
import { announceRule } from "./system-support.js";

const QUESTS = join(import.meta.dirname, "../fixtures/ftbquests/system-tasks");

/** What the plain backend's flying-squid lets the test do to a player (its own API, as its console would). */
interface BackendPlayer {
  op: boolean;
  changeWorld(world: unknown, options: { readonly dimension: number }): Promise<void>;
}

const backendPlayer = (server: SquidServer, name: string): BackendPlayer =>
  (server as unknown as { getPlayer(name: string): BackendPlayer }).getPlayer(name);

/**
 * Live player state and game events through the gateway: a plain flying-squid backend (with the test support's
 * vanilla STAND-IN for the player window at spawn, operator levels and a respawn that encodes), the gateway
 * started as `system gateway` starts it, and two bots: Steve, and Admin, an operator on the backend who types
 * the backend's own commands (`/give`, `/tp`, `/gamemode`, `/kill`), relayed as they came. What the gateway read
 * from the relayed packets is what `/system me` shows; the events reach the admin's rules.
 */
describe("gateway: live player state and game events from the relay", () => {
  let backend: PlainBackend;
  let gateway: GatewayUnderTest;
  let steve: Bot;
  let admin: Bot;
  let chat: ChatMessage[];
  let adminChat: ChatMessage[];

  /** `/system me` until its card shows what `match` wants (the backend's packets may still be on their way). */
  const me = async (match: (text: string) => boolean): Promise<ChatMessage> => {
    let last = "";
    for (let attempt = 0; attempt < 50; attempt++) {
      const card = await command(steve, chat, "/system me", (message) =>
        message.text.startsWith("Status of Steve"),
      );
      if (match(card.text)) return card;
      last = card.text;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`/system me never matched; last: ${last}`);
  };
  const backendCommand = async (line: string): Promise<void> => {
    admin.chat(line);
  };
  const seen = (text: string): number => chat.filter((message) => message.text === text).length;

  beforeAll(async () => {
    backend = await startPlainBackend({ vanilla: true });
    const dataDir = tempFolder("gateway-state-");
    mkdirSync(join(dataDir, "config/system"), { recursive: true });
    writeFileSync(
      join(dataDir, "config/system/advancements.json"),
      JSON.stringify({
        rules: [
          announceRule("hello", "system:first_join", {}, "First time here."),
          announceRule("again", "system:join", {}, "Joined again."),
          announceRule("bye", "system:leave", {}, "You left last time."),
          announceRule("rip", "system:death", {}, "You died."),
          announceRule("hot", "system:dimension_change", { dimension: "minecraft:the_nether" }, "Nether!"),
          announceRule(
            "stone",
            "system:advancement",
            { advancement: "minecraft:story/mine_stone" },
            "Stone Age!",
          ),
          announceRule("any", "system:advancement", {}, "An advancement!"),
        ],
      }),
    );
    // the backend's folder holds its FTB Quests files: quest item tasks read the inventory the relay showed
    const serverDir = tempFolder("gateway-state-server-");
    cpSync(QUESTS, join(serverDir, "config/ftbquests/quests"), { recursive: true });
    writeFileSync(join(dataDir, "config/system/gateway.json"), JSON.stringify({ serverDir }));
    gateway = await startGatewayFor(backend.port, { assistant: true, dataDir });
    admin = await joinBot(gateway.port, "Admin", (bot) => {
      adminChat = recordChat(bot);
    });
    backendPlayer(backend.server, "Admin").op = true;
    steve = await joinBot(gateway.port, "Steve", (bot) => {
      chat = recordChat(bot);
    });
  }, 120_000);

  afterAll(async () => {
    steve?.quit();
    admin?.quit();
    await gateway?.close();
    await backend?.close();
  });

  it("reports the first join and the join to the rules", async () => {
    await waitFor(() => (seen("First time here.") === 1 && seen("Joined again.") === 1 ? true : undefined));
  });

  it("shows the inventory the backend sent at spawn, and a backend /give in it", async () => {
    await me((text) => text.includes("Inventory: 0 slots used, 36 free"));
    await backendCommand("/give Steve diamond 5");
    const card = await me((text) => text.includes("Diamond × 5"));
    expect(card.text).toContain("Inventory: 1 slots used, 35 free");
  });

  it("counts the relayed inventory for a quest item task", async () => {
    const before = await command(steve, chat, "/system quest lumber tax", (m) =>
      m.text.startsWith("Lumber Tax"),
    );
    expect(before.text).toContain("Oak Log (0/");
    await backendCommand("/give Steve oak_log 2");
    await me((text) => text.includes("Oak Log × 2"));
    const after = await command(steve, chat, "/system quest lumber tax", (m) =>
      m.text.startsWith("Lumber Tax"),
    );
    expect(after.text).toContain("Oak Log (2/");
  });

  it("reports a newly completed advancement once, not those done before, nor recipe unlocks", async () => {
    const player = (backend.server as unknown as { getPlayer(name: string): SquidPlayer }).getPlayer("Steve");
    grantAdvancement(player, "minecraft:recipes/misc/stick");
    grantAdvancement(player, "minecraft:story/mine_stone");
    await waitFor(() => (seen("Stone Age!") === 1 ? true : undefined));
    grantAdvancement(player, "minecraft:story/mine_stone");
    grantAdvancement(player, "minecraft:story/root");
    await waitFor(() => (seen("An advancement!") === 2 ? true : undefined));
    // the rules have run what they were given: the recipe unlock and the repeated grant started nothing
    await gateway.gateway.assistant?.events.whenIdle();
    expect(seen("Stone Age!")).toBe(1);
    expect(seen("An advancement!")).toBe(2);
  });

  it("shows the health after damage, the experience and the food the backend sent", async () => {
    const before = await me((text) => text.includes("Health 20/20"));
    expect(before.text).toContain("Food 20/20");
    expect(before.text).not.toContain("Experience: unknown");
    (backend.server as unknown as { getPlayer(name: string): { takeDamage(d: object): void } })
      .getPlayer("Steve")
      .takeDamage({ damage: 7, animation: false });
    await me((text) => text.includes("Health 13/20"));
  });

  it("shows the position after a backend /tp", async () => {
    await backendCommand("/tp Steve 120 70 -40");
    await me((text) => /Position 120(\.5)?, \d+(\.\d)?, -40(\.5)? in/.test(text));
  });

  it("shows the game mode after a backend /gamemode", async () => {
    await me((text) => text.includes("Game mode: Survival"));
    await backendCommand("/gamemode creative Steve");
    await me((text) => text.includes("Game mode: Creative"));
    await backendCommand("/gamemode survival Steve");
    await me((text) => text.includes("Game mode: Survival"));
  });

  it("reports a death once, and the health after the respawn", async () => {
    await backendCommand("/kill Steve");
    await waitFor(() => (seen("You died.") === 1 ? true : undefined), 20_000);
    await me((text) => text.includes("Health 20/20"));
    expect(seen("You died.")).toBe(1);
  });

  it("reports entering the nether and shows the dimension", async () => {
    const nether = (backend.server as unknown as { netherworld: unknown }).netherworld;
    // the respawn packet goes out at once; flying-squid then waits for chunks and the client's move
    backendPlayer(backend.server, "Steve")
      .changeWorld(nether, { dimension: -1 })
      .catch(() => {});
    await waitFor(() => (seen("Nether!") === 1 ? true : undefined), 20_000);
    await me((text) => text.includes("minecraft:the_nether"));
  });

  it("reports the leave (its task runs at the next join) and a join that is not a first join", async () => {
    steve.quit();
    await waitFor(() => (gateway.gateway.server.players().length === 1 ? true : undefined), 30_000);
    steve = await joinBot(gateway.port, "Steve", (bot) => {
      chat = recordChat(bot);
    });
    await waitFor(
      () => (seen("You left last time.") === 1 && seen("Joined again.") === 1 ? true : undefined),
      30_000,
    );
    expect(seen("First time here.")).toBe(0);
    expect(adminChat.some((message) => message.text === "You died.")).toBe(false);
  });
});
