import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ADVANCEMENTS } from "../../src/assistant/advancement-rules.js";
import type { GameClock } from "../../src/game/context-types.js";
import {
  advancementRule,
  joinPlayer,
  type Player,
  questFolderFiles,
  quitAndWait,
  type ShippedServer,
  settled,
  speak,
  startShipped,
  uuidOf,
  waitFor,
} from "./system-support.js";

const FIXTURE = join(import.meta.dirname, "../fixtures/ftbquests/system-tasks");
const DAY = 86_400_000;
const TASKS_QUESTS = ["2100000000000001", "2100000000000002", "2100000000000003", "2100000000000004"];

const rule = advancementRule;
const QUEST_LIST = /^(No quest is open|Quests you can)/;

/** The text of title packets a bot received (1.21 writes them as NBT: the strings are what the player reads). */
const titles = (player: Player): string[] => {
  const seen: string[] = [];
  const record = (packet: unknown): void => void seen.push(JSON.stringify(packet));
  player.bot._client.on("set_title_text", record);
  player.bot._client.on("set_title_subtitle", record);
  return seen;
};

/**
 * The typed game events on the shipped server, with the default rules (welcome kit, 7-day streak bonus, quest
 * and chapter narration) and the admin's own: the server clock is injected, so seven check-ins cross seven days;
 * quest and chapter completion are narrated as a title to a player who turned speech on; a death (`/kill`), a
 * leave, playtime minutes (per session and in total), kills and dimension changes reach the rules whose typed conditions match, each once per
 * event; `/system events` lists the tasks with their rule and state.
 */
describe("typed game events and the default rules (shipped server)", () => {
  let server: ShippedServer;
  let offset = 0;
  const clock: GameClock = { now: () => Date.now() + offset, timeZone: "UTC" };

  beforeAll(async () => {
    server = await startShipped({
      clock,
      ops: ["Admin"],
      files: {
        ...questFolderFiles(FIXTURE),
        "config/system/advancements.json": JSON.stringify({
          rules: [
            ...DEFAULT_ADVANCEMENTS.rules,
            rule("death_note", "system:death", {}, "system:announce", {
              message: { en_us: "You died. Your items wait where you fell.", zh_cn: "你死了。" },
            }),
            rule("back_again", "system:leave", {}, "system:announce", {
              message: { en_us: "Good to see you back." },
            }),
            rule(
              "five_minutes",
              "system:playtime",
              { minutes: 5 },
              "system:points_bonus",
              { points: 5 },
              "once",
            ),
            rule("regular", "system:playtime", { total: 8 }, "system:announce", {
              message: { en_us: "Eight minutes on the server in all: thank you." },
            }),
            rule("zombie_bounty", "system:kill", { entity: "minecraft:zombie" }, "system:points_bonus", {
              points: 3,
            }),
            rule(
              "nether_warning",
              "system:dimension_change",
              { dimension: "minecraft:the_nether" },
              "system:announce",
              {
                message: { en_us: "Careful: the Nether burns." },
                narrate: true,
              },
            ),
            rule("bread_cashback", "system:order_delivered", { entry: "bread" }, "system:points_bonus", {
              points: 1,
            }),
            rule("typo", "system:check_in_streak", { streak: "seven" }, "system:points_bonus", { points: 1 }),
            rule("colour", "system:death", { colour: "red" }, "system:announce", { message: { en_us: "x" } }),
          ],
        }),
      },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("refuses a rule whose typed conditions do not fit its event, naming the field; the others apply", () => {
    const lines = server.logger.lines.join("\n");
    expect(lines).toMatch(/advancement rule typo: trigger\.conditions\.streak: .*; refused/);
    expect(lines).toMatch(/advancement rule colour: trigger\.conditions\.colour: .*; refused/);
    expect(lines).not.toMatch(/advancement rule (welcome|streak_bonus|death_note|five_minutes)\b/);
  });

  it("pays the default streak bonus once, on the seventh consecutive day of the injected clock", async () => {
    const streaker = await joinPlayer(server.port, "Streaker");
    try {
      await streaker.next((m) => m.text.startsWith("Welcome to the server, Streaker!"));
      for (let day = 1; day <= 8; day++) {
        const reply = await streaker.say("/system checkin", (m) => m.text.startsWith("Checked in!"));
        expect(reply.text).toContain(`Streak: ${day} day${day === 1 ? "" : "s"}`);
        if (day === 7) {
          const bonus = await streaker.next((m) => m.text.startsWith("+50 points for your check-in streak!"));
          expect(bonus.text).toMatch(/Balance: \d+/);
        }
        offset += DAY;
      }
      await settled(server, streaker);
      expect(streaker.chat.filter((m) => m.text.startsWith("+50 points")).length).toBe(1);
      const balance = await streaker.say("/system balance", (m) => m.text.startsWith("Your points"));
      expect(balance.text).toContain("+50 · bonus");
      // a delivered shop order is an event too: the cashback rule on bread pays once per order
      const quote = await streaker.say("/system buy bread 2", (m) => m.text.startsWith("Quote"));
      const [confirm] = quote.clicks;
      expect(confirm).toBeDefined();
      await streaker.say(confirm as string, (m) => /Order/.test(m.text));
      await streaker.next((m) => /delivered: Bread × 2/.test(m.text));
      await streaker.next((m) => m.text.startsWith("+1 bonus points!"));
      await streaker.say(confirm as string, (m) => /Order/.test(m.text));
      await settled(server, streaker);
      expect(streaker.chat.filter((m) => m.text.startsWith("+1 bonus points!")).length).toBe(1);
    } finally {
      streaker.quit();
    }
  });

  it("tells a player how the server gives points: the check-in's and every bonus rule, in both languages", async () => {
    const earner = await joinPlayer(server.port, "Earner");
    try {
      await earner.next((m) => m.text.startsWith("Welcome to the server, Earner!"));
      const ways = await earner.say("/system how do i get more points", (m) =>
        m.text.startsWith("Ways to earn points"),
      );
      expect(ways.text.split("\n").slice(0, 6)).toEqual([
        "Ways to earn points on this server:",
        "• Check in (/system checkin): +10 (once a day)",
        "• Check in 7 days in a row: +50 (once)",
        "• Play 5 minutes in one session: +5 (once)",
        "• Defeat Zombie: +3 (each time)",
        "• Receive a shop order of bread: +1 (each time)",
      ]);
      // the refused rule (typo) gives nothing, so it is no way to earn
      expect(ways.text).not.toContain("+1 (once)");
      const [checkIn] = ways.clicks;
      expect(checkIn).toBeDefined();
      await earner.say(checkIn as string, (m) => m.text.startsWith("Checked in!"));
      // the balance card offers the earning card
      const balance = await earner.say("/system balance", (m) => m.text.startsWith("Your points"));
      expect(balance.text).toContain("+10 · daily check-in");
      const [earn] = balance.clicks;
      const again = await earner.say(earn as string, (m) => m.text.startsWith("Ways to earn points"));
      expect(again.text).toContain("• Check in 7 days in a row: +50 (once)");
      await speak(server, earner, "zh_cn");
      const zh = await earner.say("/system 积分怎么赚", (m) => m.text.startsWith("在本服务器赚积分的方法"));
      expect(zh.text).toContain("• 签到（/system 签到）：+10 积分（每天一次）");
      // a mob by its name in the reader's language
      expect(zh.text).toContain("• 击败僵尸：+3 积分（每次）");
    } finally {
      earner.quit();
    }
  });

  it("narrates quest and chapter completion as a title to a player who turned speech on", async () => {
    const quester = await joinPlayer(server.port, "Quester");
    const admin = await joinPlayer(server.port, "Admin");
    try {
      const shown = titles(quester);
      await quester.say("/system settings speech on", (m) => m.text.startsWith("Speech is on"));
      for (const quest of TASKS_QUESTS)
        await admin.say(`/system complete Quester ${quest}`, (m) => m.text.startsWith("Completed"));
      await quester.say("/system quests", (m) => QUEST_LIST.test(m.text));
      await quester.next((m) => m.text === "★ Quest completed: Welcome Kit");
      await quester.next((m) => m.text === "★ Quest completed: Zombie Hunter");
      await quester.next((m) => m.text === "★ Chapter completed: Tasks");
      // the titles follow their chat line (narration is rendered after it)
      await waitFor(() =>
        shown.some((packet) => packet.includes("Chapter completed: Tasks!")) &&
        shown.some((packet) => packet.includes("Quest completed: Welcome Kit!"))
          ? true
          : undefined,
      );
      // reading the quests again announces nothing new
      await quester.say("/system 任务", (m) => QUEST_LIST.test(m.text));
      await settled(server, quester);
      expect(quester.chat.filter((m) => m.text === "★ Chapter completed: Tasks").length).toBe(1);
    } finally {
      quester.quit();
      admin.quit();
    }
  });

  it("reports a death, a leave, playtime, kills and dimension changes to the rules whose conditions match", async () => {
    const doomed = await joinPlayer(server.port, "Doomed");
    let victim = await joinPlayer(server.port, "Victim");
    const admin = await joinPlayer(server.port, "Admin");
    try {
      admin.bot.chat("/kill Doomed");
      await doomed.next((m) => m.text === "You died. Your items wait where you fell.");
      doomed.quit();
      const uuid = uuidOf(server.system, "Victim");
      // the host reports kills and dimension changes through the assistant's facade, as flying-squid's hooks do
      await server.system.assistant.killed(uuid, "minecraft:zombie", "zombie-1");
      await server.system.assistant.killed(uuid, "minecraft:zombie", "zombie-1");
      await server.system.assistant.killed(uuid, "minecraft:skeleton", "skeleton-1");
      await victim.next((m) => m.text.startsWith("+3 bonus points!"));
      await server.system.assistant.changedDimension(uuid, "minecraft:overworld");
      await server.system.assistant.changedDimension(uuid, "minecraft:the_nether");
      await victim.next((m) => m.text === "Careful: the Nether burns.");
      offset += 6 * 60_000;
      await server.system.assistant.tickPlaytime();
      await victim.next((m) => m.text.startsWith("+5 points for your time on the server!"));
      await server.system.assistant.tickPlaytime();
      await settled(server, victim);
      expect(victim.chat.filter((m) => m.text.startsWith("+3 bonus points!")).length).toBe(1);
      expect(victim.chat.filter((m) => m.text.startsWith("+5 points")).length).toBe(1);
      expect(victim.chat.filter((m) => m.text.startsWith("Careful")).length).toBe(1);
      expect(victim.chat.filter((m) => m.text.startsWith("Eight minutes")).length).toBe(0);
      // a leave event runs when the player is back (the task waits for them)
      await quitAndWait(server, victim, "Victim");
      victim = await joinPlayer(server.port, "Victim");
      await victim.next((m) => m.text === "Good to see you back.");
      // the join has finished (its playtime session began): the total counts every session, 6 minutes before
      // the rejoin and 3 after reach the rule's 8
      await settled(server, victim);
      offset += 3 * 60_000;
      await server.system.assistant.tickPlaytime();
      await victim.next((m) => m.text === "Eight minutes on the server in all: thank you.");

      const listed = await admin.say("/system events Victim", (m) => m.text.startsWith("Recent event tasks"));
      expect(listed.text).toContain("zombie_bounty → system:points_bonus · system:kill · Victim");
      expect(listed.text).not.toContain("system:death");
      const doomedTasks = await admin.say("/system events Doomed", (m) =>
        m.text.startsWith("Recent event tasks"),
      );
      expect(doomedTasks.text).toContain("death_note → system:announce · system:death · Doomed");
      expect(listed.text).toMatch(/done · back_again → system:announce · system:leave · Victim/);
      const all = await admin.say("/system events", (m) => m.text.startsWith("Recent event tasks (15)"));
      expect(all.text).toContain("back_again → system:announce · system:leave · Victim");
      const streaker = await admin.say("/system events Streaker", (m) =>
        m.text.startsWith("Recent event tasks"),
      );
      expect(streaker.text).toContain(
        "streak_bonus → system:points_bonus · system:check_in_streak · Streaker",
      );
      expect(streaker.text).toContain("welcome → system:welcome · system:first_join · Streaker");
      // a player who is not an admin has no such command
      const refused = await victim.say("/system events", (m) => /events/.test(m.text));
      expect(refused.text).toBe("⚠ Unknown command: events");
    } finally {
      doomed.quit();
      victim.quit();
      admin.quit();
    }
  }, 120_000);
});
