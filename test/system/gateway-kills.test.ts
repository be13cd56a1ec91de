import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ADVANCEMENTS } from "../../src/assistant/advancement-rules.js";
import { RconClient, RconCommands } from "../../src/host/gateway/rcon/index.js";
import { type RunningGateway, startGateway } from "../../src/host/gateway/start-gateway.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { type ChatMessage, command, recordChat } from "../e2e/assistant-support.js";
import { type RconStandIn, startRconStandIn } from "../support/rcon-stand-in.js";
import { joinBot, type PlainBackend, startPlainBackend, tempFolder, waitFor } from "./gateway-support.js";
import { advancementRule } from "./system-support.js";

const TASKS = join(import.meta.dirname, "../fixtures/ftbquests/system-tasks");
const PASSWORD = "stand-in";

/**
 * Kills through the gateway, which no relayed packet shows: the backend's kill statistic (a scoreboard objective
 * with the `minecraft.killed:minecraft.zombie` criterion, created over RCON) is read for the players whose rules or
 * quest kill tasks count zombies. The backend is a plain flying-squid world with the RCON STAND-IN of the test
 * support; flying-squid keeps no statistics, so the test counts a kill with vanilla's own `scoreboard players add`
 * sent through the real RCON protocol, as the statistic would count it.
 */
describe("gateway: kills from the backend's statistics over RCON", () => {
  let backend: PlainBackend;
  let standIn: RconStandIn;
  let gateway: RunningGateway;
  let client: RconClient;
  let driver: RconClient;
  let hunter: Bot;
  let chat: ChatMessage[];
  const logger = new MemoryLogger();
  const reads = (): number =>
    standIn.commands.filter((line) => line === "scoreboard players get Hunter sk.zombie").length;
  const bonuses = (): number => chat.filter((message) => message.text.startsWith("+3 bonus points!")).length;
  const anyMob = (): number => chat.filter((message) => message.text.startsWith("+2 bonus points!")).length;
  /** A zombie kill as a server's statistics count it: the zombie's kills and the mob kills. */
  const killZombies = async (count: number): Promise<void> => {
    await driver.command(`scoreboard players add Hunter sk.zombie ${count}`);
    await driver.command(`scoreboard players add Hunter sk.any_mob ${count}`);
  };

  beforeAll(async () => {
    backend = await startPlainBackend();
    standIn = await startRconStandIn({ server: backend.server, password: PASSWORD });
    const serverDir = tempFolder("gateway-kills-server-");
    cpSync(TASKS, join(serverDir, "config/ftbquests/quests"), { recursive: true });
    const dataDir = tempFolder("gateway-kills-data-");
    mkdirSync(join(dataDir, "config/system"), { recursive: true });
    writeFileSync(join(dataDir, "config/system/gateway.json"), JSON.stringify({ serverDir }));
    writeFileSync(
      join(dataDir, "config/system/advancements.json"),
      JSON.stringify({
        rules: [
          advancementRule("bounty", "system:kill", { entity: "minecraft:zombie" }, "system:points_bonus", {
            points: 3,
          }),
          // any mob: the backend's mob-kills statistic, each kill once whether a zombie's count knows it or not
          advancementRule("any_kill", "system:kill", {}, "system:points_bonus", { points: 2 }),
          ...DEFAULT_ADVANCEMENTS.rules.filter((rule) => (rule as { id: string }).id === "quest_narration"),
        ],
      }),
    );
    client = new RconClient({ host: "127.0.0.1", port: standIn.port, password: PASSWORD, logger });
    driver = new RconClient({ host: "127.0.0.1", port: standIn.port, password: PASSWORD, logger });
    gateway = await startGateway({
      argv: ["--backend", `127.0.0.1:${backend.port}`, "--port", "0", "--data-dir", dataDir],
      logger,
      announce: () => {},
      environment: {},
      rcon: new RconCommands({ client, language: standIn.language, logger }),
      killPollMillis: 100,
    });
    hunter = await joinBot(gateway.port, "Hunter", (bot) => {
      chat = recordChat(bot);
    });
  }, 120_000);

  afterAll(async () => {
    hunter?.quit();
    await gateway?.close();
    await client?.close();
    await driver?.close();
    await standIn?.close();
    await backend?.close();
  });

  it("counts one zombie kill once for the bounty rule and the quest's kill task", async () => {
    // the objective is made with the statistic's criterion, in the dialect the backend knows, and read once
    await waitFor(() =>
      reads() >= 1 && standIn.commands.includes("scoreboard players get Hunter sk.any_mob")
        ? true
        : undefined,
    );
    expect(standIn.commands).toContain(
      "scoreboard objectives add sk.zombie minecraft.killed:minecraft.zombie",
    );
    expect(standIn.commands).toContain(
      "scoreboard objectives add sk.any_mob minecraft.custom:minecraft.mob_kills",
    );
    expect(standIn.commands.filter((line) => line.startsWith("scoreboard objectives add"))).toHaveLength(2);
    expect(bonuses()).toBe(0);
    const added = await driver.command("scoreboard players add Hunter sk.zombie 1");
    expect(added).toBe("Added 1 to [sk.zombie] for Hunter (now 1)");
    await driver.command("scoreboard players add Hunter sk.any_mob 1");
    await waitFor(() => chat.find((message) => message.text.startsWith("+3 bonus points!")));
    await waitFor(() => chat.find((message) => message.text === "★ Quest completed: Zombie Hunter"));
    // later reads of the same count report nothing again
    const after = reads();
    await waitFor(() => (reads() >= after + 3 ? true : undefined));
    const balance = await command(hunter, chat, "/system balance", (m) => m.text.startsWith("Your points"));
    expect(balance.text).toContain("Your points: 5");
    expect(bonuses()).toBe(1);
    expect(anyMob()).toBe(1);
    expect(chat.filter((message) => message.text === "★ Quest completed: Zombie Hunter")).toHaveLength(1);
    const quest = await command(hunter, chat, "/system quest zombie hunter", (m) =>
      m.text.startsWith("Zombie Hunter"),
    );
    expect(quest.text).toContain("(complete)");
  });

  it("turns an increase of two into two kills", async () => {
    await killZombies(2);
    await waitFor(() => (bonuses() >= 3 && anyMob() >= 3 ? true : undefined));
    const after = reads();
    await waitFor(() => (reads() >= after + 3 ? true : undefined));
    const balance = await command(hunter, chat, "/system balance", (m) => m.text.startsWith("Your points"));
    expect(balance.text).toContain("Your points: 15");
    expect(bonuses()).toBe(3);
    expect(anyMob()).toBe(3);
  });

  it("counts a kill of a mob no rule names once, for the rule on any mob only", async () => {
    // a skeleton: only the mob kills go up
    await driver.command("scoreboard players add Hunter sk.any_mob 1");
    await waitFor(() => (anyMob() >= 4 ? true : undefined));
    await killZombies(1);
    await waitFor(() => (bonuses() >= 4 ? true : undefined));
    const after = reads();
    await waitFor(() => (reads() >= after + 3 ? true : undefined));
    const balance = await command(hunter, chat, "/system balance", (m) => m.text.startsWith("Your points"));
    expect(balance.text).toContain("Your points: 22");
    expect(bonuses()).toBe(4);
    expect(anyMob()).toBe(5);
  });
});
