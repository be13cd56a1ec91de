import type { Bot } from "mineflayer";
import { afterAll, describe, expect, it } from "vitest";
import {
  type BackendProcess,
  type GatewayUnderTest,
  joinBot,
  startBackendProcess,
  startGatewayFor,
  waitFor,
  waitKicked,
} from "./gateway-support.js";

/** Switches a bot's client language with the settings packet a real client sends in play. */
const speakChinese = (bot: Bot): void => {
  bot._client.write("settings", {
    locale: "zh_cn",
    viewDistance: 2,
    chatFlags: 0,
    chatColors: true,
    skinParts: 127,
    mainHand: 1,
    enableTextFiltering: false,
    enableServerListing: true,
    particles: 0,
  });
};

/** A backend that crashes under the gateway: its players are told why, and the gateway outlives it. */
describe("gateway: a backend that goes away", () => {
  let backend: BackendProcess | undefined;
  let gateway: GatewayUnderTest | undefined;
  const bots: Bot[] = [];

  afterAll(async () => {
    for (const bot of bots) bot.quit();
    await gateway?.close();
    await backend?.kill();
  });

  it("disconnects its players with a reason in their language, refuses joins while it is down, and relays again once it is back", async () => {
    backend = await startBackendProcess();
    const port = backend.port;
    gateway = await startGatewayFor(port);
    const english = await joinBot(gateway.port, "Steve");
    const chinese = await joinBot(gateway.port, "Xiaoming");
    bots.push(english, chinese);
    speakChinese(chinese);
    await waitFor(() =>
      gateway?.gateway.server.players().find((player) => player.username === "Xiaoming")?.locale === "zh_cn"
        ? true
        : undefined,
    );

    const englishKick = waitKicked(english);
    const chineseKick = waitKicked(chinese);
    await backend.kill();
    expect(await englishKick).toContain("The server closed the connection. Try joining again in a moment.");
    expect(await chineseKick).toContain("服务器断开了连接，请稍后再加入。");

    // while the backend is down, a join is refused in both languages (the client has not said which it reads)
    const refused = await joinBot(gateway.port, "Early").then(
      () => "joined",
      (error: Error) => error.message,
    );
    expect(refused).toContain("The server is not reachable right now.");
    expect(refused).toContain("服务器暂时无法连接");
    expect(gateway.logger.has("the backend is not reachable (ECONNREFUSED)")).toBe(true);

    // the same gateway relays the next join once the backend is back on its port
    backend = await startBackendProcess(port);
    const returning = await joinBot(gateway.port, "Steve");
    bots.push(returning);
    expect(gateway.gateway.server.players().map((player) => player.username)).toEqual(["Steve"]);
  }, 120_000);
});
