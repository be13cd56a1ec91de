import { chmodSync, cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ADVANCEMENTS } from "../../src/assistant/advancement-rules.js";
import { RconClient } from "../../src/host/gateway/rcon/index.js";
import { type RunningGateway, startGateway } from "../../src/host/gateway/start-gateway.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import { type ChatMessage, command, recordChat } from "../e2e/assistant-support.js";
import { type RconStandIn, startRconStandIn } from "../support/rcon-stand-in.js";
import { joinBot, type PlainBackend, startPlainBackend, tempFolder, waitFor } from "./gateway-support.js";
import { advancementRule } from "./system-support.js";

const TASKS = join(import.meta.dirname, "../fixtures/ftbquests/system-tasks");
const PASSWORD = "stand-in effects";

/** A quest with no task (complete at once) whose rewards System gives when claimed. */
const GIFTS_CHAPTER = `{
	filename: "gifts"
	group: ""
	id: "1200000000000001"
	order_index: 1
	quests: [{
		id: "2200000000000001"
		rewards: [{
			count: 5
			id: "4200000000000001"
			item: { count: 1, id: "minecraft:cookie" }
			type: "item"
		}]
		title: "Cookie Jar"
		x: 0.0d
		y: 0.0d
	}]
	title: "Gifts"
}
`;

interface Joined {
  readonly bot: Bot;
  readonly chat: ChatMessage[];
  say(line: string, match: (message: ChatMessage) => boolean): Promise<ChatMessage>;
  next(match: (message: ChatMessage) => boolean, from?: number): Promise<ChatMessage>;
  held(item: string): number;
}

/**
 * Rewards through the gateway's RCON, as `system gateway` starts it from gateway.json's `rcon` block: the welcome
 * kit, a check-in, a shop order with its confirm (and its refund when the items do not fit), a quest claim, and a
 * delivery that waits for a player who left. The backend is a plain flying-squid world with the RCON STAND-IN of
 * the test support (a real RCON server answering with the game's own texts and changing the world). Each effect
 * is done only after a `save-all` that began after it: a held save holds the notice, a failed one leaves the
 * delivery unconfirmed for an admin.
 */
describe("gateway: rewards over RCON, done after a save", () => {
  let backend: PlainBackend;
  let standIn: RconStandIn;
  let gateway: RunningGateway;
  let driver: RconClient;
  const bots: Bot[] = [];
  const logger = new MemoryLogger();

  const enter = async (name: string): Promise<Joined> => {
    let chat: ChatMessage[] = [];
    const bot = await joinBot(gateway.port, name, (created) => {
      chat = recordChat(created);
    });
    bots.push(bot);
    const next = async (match: (message: ChatMessage) => boolean, from = 0): Promise<ChatMessage> =>
      waitFor(() => chat.slice(from).find(match), 20_000);
    return {
      bot,
      chat,
      say: (line, match) => command(bot, chat, line, match),
      next,
      held: (item) =>
        bot.inventory
          .items()
          .filter((stack) => stack.name === item)
          .reduce((sum, stack) => sum + stack.count, 0),
    };
  };

  beforeAll(async () => {
    backend = await startPlainBackend();
    standIn = await startRconStandIn({ server: backend.server, password: PASSWORD });
    const serverDir = tempFolder("gateway-effects-server-");
    cpSync(TASKS, join(serverDir, "config/ftbquests/quests"), { recursive: true });
    writeFileSync(join(serverDir, "config/ftbquests/quests/chapters/gifts.snbt"), GIFTS_CHAPTER);
    const dataDir = tempFolder("gateway-effects-data-");
    const config = join(dataDir, "config/system");
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "rcon.secret"), `${PASSWORD}\n`);
    chmodSync(join(config, "rcon.secret"), 0o600);
    writeFileSync(
      join(config, "gateway.json"),
      JSON.stringify({
        serverDir,
        rcon: {
          host: "127.0.0.1",
          port: standIn.port,
          passwordFile: "config/system/rcon.secret",
          saveIntervalSeconds: 0,
        },
      }),
    );
    // Olga is one of System's own operators (server.json), as an admin of the gateway would list herself
    writeFileSync(join(config, "server.json"), JSON.stringify({ ops: ["Olga"] }));
    writeFileSync(
      join(config, "advancements.json"),
      JSON.stringify({
        rules: [
          ...DEFAULT_ADVANCEMENTS.rules.filter((rule) => (rule as { id: string }).id === "welcome"),
          advancementRule("allowance", "system:join", {}, "system:points_bonus", { points: 100 }, "once"),
        ],
      }),
    );
    driver = new RconClient({ host: "127.0.0.1", port: standIn.port, password: PASSWORD, logger });
    gateway = await startGateway({
      argv: ["--backend", `127.0.0.1:${backend.port}`, "--port", "0", "--data-dir", dataDir],
      logger,
      announce: () => {},
      environment: {},
    });
  }, 120_000);

  afterAll(async () => {
    for (const bot of bots) bot.quit();
    await gateway?.close();
    await driver?.close();
    await standIn?.close();
    await backend?.close();
  });

  it("says at start that rewards go through RCON", () => {
    expect(logger.has(`RCON at 127.0.0.1:${standIn.port}: rewards are given through it`)).toBe(true);
  });

  it("gives the welcome kit at a first join, in the backend's dialect, saved after the gives", async () => {
    const steve = await enter("Steve");
    const welcome = await steve.next((m) => m.text.startsWith("Welcome to the server, Steve!"));
    expect(welcome.text).toContain("Your starter kit:");
    await waitFor(() => (steve.held("apple") === 4 ? true : undefined));
    expect(steve.held("wooden_pickaxe")).toBe(1);
    expect(steve.held("wooden_sword")).toBe(1);
    const gives = standIn.commands.filter((line) => line.startsWith("give Steve "));
    expect(gives).toEqual([
      "give Steve minecraft:wooden_pickaxe 1",
      "give Steve minecraft:wooden_sword 1",
      "give Steve minecraft:apple 4",
    ]);
    const lastGive = standIn.commands.lastIndexOf("give Steve minecraft:apple 4");
    expect(standIn.commands.indexOf("save-all", lastGive)).toBeGreaterThan(lastGive);
  });

  it("holds the check-in's arrival until a save that began after the give has finished", async () => {
    const alex = await enter("Alex");
    await alex.next((m) => m.text.startsWith("Welcome to the server, Alex!"));
    await waitFor(() => (alex.held("apple") === 4 ? true : undefined));
    const release = standIn.hold("save-all");
    const from = standIn.commands.length;
    const done = await alex.say("/system checkin", (m) => m.text.startsWith("Checked in!"));
    expect(done.text).toContain("Bread × 3");
    await waitFor(() => (standIn.commands.slice(from).includes("save-all") ? true : undefined));
    // given (the slots changed) but not saved: not done, no notice
    await waitFor(() => (alex.held("bread") === 3 ? true : undefined));
    expect(alex.held("experience_bottle")).toBe(2);
    expect(alex.chat.some((m) => /check-in reward has arrived/.test(m.text))).toBe(false);
    const saves = standIn.saves();
    release();
    await alex.next((m) => /check-in reward has arrived/.test(m.text));
    expect(standIn.saves()).toBe(saves + 1);
    expect(alex.held("bread")).toBe(3);
  });

  it("sells with a confirm: charged once, given over RCON, delivered after the save", async () => {
    const carol = await enter("Carol");
    await carol.next((m) => m.text.startsWith("Welcome to the server, Carol!"));
    await carol.next((m) => m.text.startsWith("+100 bonus points!"));
    const quote = await carol.say("/system buy bread 10", (m) => m.text.startsWith("Quote"));
    expect(quote.text).toContain("Balance 100 → 80");
    const [confirm] = quote.clicks;
    expect(confirm).toBeDefined();
    const placed = await carol.say(confirm as string, (m) => /Order/.test(m.text));
    expect(placed.text).toMatch(/Order [0-9a-f]{8} confirmed: Bread × 10 for 20 points/);
    await carol.next((m) => /delivered: Bread × 10/.test(m.text));
    await waitFor(() => (carol.held("bread") === 10 ? true : undefined));
    const orders = await carol.say("/system orders", (m) => m.text.startsWith("Your orders"));
    expect(orders.text).toContain("delivered");
    expect(orders.text).toContain("Balance: 80 points.");
  });

  it("refuses a purchase that does not fit before giving anything, and refunds it", async () => {
    const full = await enter("Full");
    await full.next((m) => m.text.startsWith("Welcome to the server, Full!"));
    await full.next((m) => m.text.startsWith("+100 bonus points!"));
    await waitFor(() => (full.held("apple") === 4 ? true : undefined));
    // 33 more slots of stone: with the kit's three, all 36 carried slots are taken
    await driver.command(`give Full minecraft:stone ${33 * 64}`);
    await waitFor(() => (full.held("stone") === 33 * 64 ? true : undefined));
    const from = standIn.commands.length;
    const quote = await full.say("/system buy torch 1", (m) => m.text.startsWith("Quote"));
    const placed = await full.say(quote.clicks[0] as string, (m) => /Order/.test(m.text));
    expect(placed.text).toMatch(/confirmed/);
    const refunded = await full.next((m) => /could not be delivered/.test(m.text));
    expect(refunded.text).toContain("points refunded");
    expect(standIn.commands.slice(from)).toContain("data get entity Full Inventory");
    expect(standIn.commands.slice(from).some((line) => line.startsWith("give Full"))).toBe(false);
    expect(standIn.dropped.filter((drop) => drop.player === "Full")).toEqual([]);
    expect(full.held("torch")).toBe(0);
    const balance = await full.say("/system balance", (m) => m.text.startsWith("Your points"));
    expect(balance.text).toContain("Your points: 100");
  });

  it("gives a claimed quest's rewards", async () => {
    const dana = await enter("Dana");
    await dana.next((m) => m.text.startsWith("Welcome to the server, Dana!"));
    const card = await dana.say("/system quest cookie jar", (m) => m.text.startsWith("Cookie Jar"));
    const claim = card.clicks.find((value) => value.startsWith("/system card "));
    expect(claim).toBeDefined();
    const queued = await dana.say(claim as string, (m) => /claimed/.test(m.text));
    expect(queued.text).toContain("Rewards of Cookie Jar claimed; on their way:");
    await dana.next((m) => m.text.startsWith("Rewards of Cookie Jar delivered"));
    await waitFor(() => (dana.held("cookie") === 5 ? true : undefined));
  });

  it("keeps a delivery for a player who left before it, and gives it at their next join", async () => {
    let erin = await enter("Erin");
    await erin.next((m) => m.text.startsWith("Welcome to the server, Erin!"));
    await erin.next((m) => m.text.startsWith("+100 bonus points!"));
    await waitFor(() => (erin.held("apple") === 4 ? true : undefined));
    const quote = await erin.say("/system buy torch 2", (m) => m.text.startsWith("Quote"));
    // the room check waits at the backend while Erin leaves: the backend then knows no Erin, nothing is given
    const release = standIn.hold("data get entity Erin");
    const from = standIn.commands.length;
    erin.bot.chat(quote.clicks[0] as string);
    await waitFor(() =>
      standIn.commands.slice(from).includes("data get entity Erin Inventory") ? true : undefined,
    );
    erin.bot.quit();
    await waitFor(() => (backend.server.players.some((p) => p.username === "Erin") ? undefined : true));
    release();
    await gateway.assistant?.events.whenIdle();
    erin = await enter("Erin");
    await erin.next((m) => /delivered: Torch × 8/.test(m.text));
    await waitFor(() => (erin.held("torch") === 8 ? true : undefined));
    expect(standIn.commands.filter((line) => line.startsWith("give Erin minecraft:torch"))).toEqual([
      "give Erin minecraft:torch 8",
    ]);
  });

  it("leaves a give whose save failed unconfirmed for an admin, never given again by itself", async () => {
    const finn = await enter("Finn");
    await finn.next((m) => m.text.startsWith("Welcome to the server, Finn!"));
    await waitFor(() => (finn.held("apple") === 4 ? true : undefined));
    standIn.failNextSave();
    await finn.say("/system checkin", (m) => m.text.startsWith("Checked in!"));
    await finn.next((m) => /could not be confirmed/.test(m.text));
    expect(finn.held("bread")).toBe(3);
    const finnId = offlineUuid("Finn");
    const unconfirmed = gateway.assistant?.events.unconfirmed() ?? [];
    expect(unconfirmed.filter((task) => task.playerId === finnId)).toHaveLength(1);
    expect(standIn.commands.filter((line) => line === "give Finn minecraft:bread 3")).toHaveLength(1);
    // an operator of the backend sees it with /system deliveries and settles it after checking the inventory
    const olga = await enter("Olga");
    let listed = "";
    for (let attempt = 0; attempt < 100 && !listed.includes("Finn"); attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      listed = (await olga.say("/system deliveries", () => true)).text;
    }
    expect(listed).toContain("Unconfirmed deliveries");
    const ref = /\[([^\]]+)\]/.exec(listed.split("\n")[1] ?? "")?.[1];
    expect(ref).toBeDefined();
    await olga.say(`/system deliveries done ${ref}`, (m) => m.text.includes("marked done"));
    expect(finn.held("bread")).toBe(3);
    expect(gateway.assistant?.events.unconfirmed().filter((task) => task.playerId === finnId)).toHaveLength(
      0,
    );
  });
});
