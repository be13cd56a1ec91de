import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  joinPlayer,
  type Player,
  type ShippedServer,
  settled,
  speak,
  startShipped,
  waitFor,
} from "./system-support.js";

/** Everything a bot saw in its action bar (where the game shows narration: Minecraft cannot speak). */
const actionBar = (player: Player): string[] => {
  const seen: string[] = [];
  player.bot.on("actionBar", (message) => {
    seen.push(message.toString());
  });
  return seen;
};

/**
 * Speech on the shipped server: a player who turns speech on hears (sees, in the action bar) the narration of
 * cards, in their language: a card's own SpeechContent, else the narration of its kind (check-in). A player
 * with speech off sees the same cards without narration.
 */
describe("speech (shipped server)", () => {
  let server: ShippedServer;

  beforeAll(async () => {
    server = await startShipped({ ops: ["Admin"] });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("narrates check-in and its reward to a player who turned speech on, in their language; never to one who did not", async () => {
    const quiet = await joinPlayer(server.port, "Quiet");
    const ling = await joinPlayer(server.port, "Ling");
    try {
      const quietBar = actionBar(quiet);
      const lingBar = actionBar(ling);
      await speak(server, ling, "zh_cn");
      const on = await ling.say("/system settings speech on", (m) => /语音/.test(m.text));
      expect(on.text).toBe("语音播报已开启：播报显示在快捷栏上方，重要消息以标题显示。");
      const shown = await ling.say("/system settings", (m) => /你的设置/.test(m.text));
      expect(shown.text).toBe(
        "你的设置：对话历史 开 · 外部服务 开 · 语音播报 开。用 /system settings history|external|speech on|off 修改。",
      );
      await ling.say("/system 签到", (m) => /签到/.test(m.text));
      await waitFor(() => (lingBar.includes("签到成功，连续第 1 天。") ? true : undefined));
      await waitFor(() => (lingBar.includes("签到奖励已送达。") ? true : undefined));
      await quiet.say("/system checkin", (m) => /Checked in/.test(m.text));
      await quiet.next((m) => /reward has arrived/.test(m.text));
      await settled(server, quiet);
      expect(quietBar.filter((line) => /Checked in|arrived/.test(line))).toEqual([]);
      // an answer is narrated as a short spoken summary: its first sentence
      const admin = await joinPlayer(server.port, "Admin");
      try {
        await admin.say(
          "/system knowledge add Diamonds | Diamonds are found deep underground. Mine at y -58 with an iron pickaxe.",
          (m) => /added/.test(m.text),
        );
      } finally {
        admin.quit();
      }
      await speak(server, ling, "en_us");
      await ling.say("/question where are diamonds", (m) => /Diamonds are found/.test(m.text));
      await waitFor(() =>
        lingBar.includes("Diamonds are found deep underground.") ? true : undefined,
      ).catch((error: unknown) => {
        throw new Error(
          `${String(error)}; action bar: ${JSON.stringify(lingBar)}; chat: ${JSON.stringify(ling.chat.map((m) => m.text))}`,
        );
      });
      await speak(server, ling, "zh_cn");
      const off = await ling.say("/system settings speech off", (m) => /语音/.test(m.text));
      expect(off.text).toBe("语音播报已关闭。");
    } finally {
      quiet.quit();
      ling.quit();
    }
  });
});
