import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import {
  joinPlayer,
  modelEnvironment,
  type Player,
  type ShippedServer,
  startShipped,
  tempFolder,
} from "./system-support.js";

/** Debian's chromium (`.ci/run` installs it); PANEL_CHROMIUM overrides the path. */
const CHROMIUM = process.env.PANEL_CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = process.env.PANEL_SCREENSHOTS ?? tempFolder("system-panel-shots-");

const codeOf = async (player: Player): Promise<string> => {
  const reply = await player.say("/system bind", (m) => m.text.startsWith("Your web panel code"));
  const code = /code: ([A-Z0-9]{8})/.exec(reply.text)?.[1];
  if (code === undefined) throw new Error(`no code in ${reply.text}`);
  return code;
};

const bind = async (page: Page, url: string, code: string): Promise<void> => {
  await page.goto(url);
  await page.getByLabel("Binding code").fill(code);
  await page.getByRole("button", { name: "Bind" }).click();
};

const send = async (page: Page, text: string): Promise<void> => {
  await page.getByLabel("Message").fill(text);
  await page.getByLabel("Message").press("Enter");
};

/**
 * The web panel served by the shipped server (`startSystem`, as `npm start`), driven by Debian's chromium through
 * playwright-core: a code from `/system bind` in game binds the browser; a command typed in the panel shows its
 * card; a button runs a new request; a reload restores history read-only; `/system unbind` in game shows REVOKED
 * at once; a second browser bound to another player never sees the first one's cards; wrong codes lock out.
 */
describe("the web panel (shipped server, chromium)", () => {
  let server: ShippedServer;
  let model: ScriptedModelServer;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);
    mkdirSync(SHOTS, { recursive: true });
    model = await ScriptedModelServer.start();
    server = await startShipped({ ops: ["Admin"], environment: modelEnvironment(model) });
    url = server.system.panelUrl ?? "";
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await model?.close();
  });

  it("binds with a code from the game, shows cards, runs a button, restores history read-only, and is revoked by /system unbind", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.logger.lines.join("\n")).not.toContain("web panel not started");
    const pia = await joinPlayer(server.port, "Pia");
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      // the code in game, with the panel's address as a link
      const offer = await pia.say("/system bind", (m) => m.text.startsWith("Your web panel code"));
      expect(offer.clicks).toContain(url);
      await bind(page, url, /code: ([A-Z0-9]{8})/.exec(offer.text)?.[1] ?? "");
      await expect.poll(() => page.locator("#player").textContent()).toContain("Pia");
      // the mode menu shows the player's mode; choosing one is `/system mode <mode>`, a refused one snaps back
      await expect.poll(() => page.getByLabel("Mode").inputValue()).toBe("routing");
      await page.getByLabel("Mode").selectOption("ask");
      await page.locator(".card", { hasText: "Your mode is now ask." }).waitFor();
      await expect.poll(() => page.getByLabel("Mode").inputValue()).toBe("ask");
      await send(page, "mode routing");
      await page.locator(".card", { hasText: "Your mode is now routing." }).waitFor();
      await expect.poll(() => page.getByLabel("Mode").inputValue()).toBe("routing");

      // a slash line is a command as in game chat: a mistyped one says so and is never routed
      const asked = model.requests.length;
      await send(page, "/itme minecraft:diamond");
      await page.locator(".card", { hasText: "Unknown command: itme" }).waitFor();
      await send(page, "/system item");
      await page.locator(".card", { hasText: "Usage: /system item <query>" }).waitFor();
      expect(model.requests.length).toBe(asked);

      await send(page, "/system item minecraft:diamond");
      const diamond = page.locator(".card", { hasText: "ID: minecraft:diamond" }).last();
      await diamond.waitFor();
      await page.screenshot({ path: join(SHOTS, "1-diamond-card.png"), fullPage: true });
      // a button of that card is a new structured request: the sources of a block of diamond
      const cards = await page.locator(".card").count();
      // the message input keeps the focus after Enter, and its completion list may be open over the page: a first
      // click would only close that list, so the focus leaves the input first
      await page.getByLabel("Message").blur();
      await diamond.getByRole("button").first().click();
      await expect.poll(() => page.locator(".card").count()).toBeGreaterThan(cards);
      await page.screenshot({ path: join(SHOTS, "2-after-button.png"), fullPage: true });

      // the reload restores the conversation read-only: no buttons on restored cards
      await page.reload();
      const restored = page.locator(".card.history", { hasText: "ID: minecraft:diamond" });
      await restored.first().waitFor();
      expect(await restored.first().getByRole("button").count()).toBe(0);
      // the command typed in game shows as typed, root and all
      const typed = await page.locator(".card.history.user").allTextContents();
      expect(typed).toContain("/system bind");
      expect(typed).not.toContain("/bind");
      await page.screenshot({ path: join(SHOTS, "3-history.png"), fullPage: true });

      // unbinding in game reaches the open panel at once
      const unbound = await pia.say("/system unbind", (m) => m.text.startsWith("Unbound"));
      expect(unbound.text).toBe("Unbound: 1 web panel session(s) ended.");
      await page.getByRole("status").filter({ hasText: "REVOKED" }).waitFor();
      await page.screenshot({ path: join(SHOTS, "4-revoked.png"), fullPage: true });
      await page.reload();
      await page.getByLabel("Binding code").waitFor();
    } finally {
      await context.close();
      pia.quit();
    }
  }, 90_000);

  it("shows each browser only its own player's cards", async () => {
    const ada = await joinPlayer(server.port, "Ada");
    const bo = await joinPlayer(server.port, "Bo");
    const first = await browser.newContext();
    // the second browser prefers Chinese: the page's own texts are Chinese, the labels tests use stay English
    const second = await browser.newContext({ locale: "zh-CN" });
    try {
      const adaPage = await first.newPage();
      const boPage = await second.newPage();
      await bind(adaPage, url, await codeOf(ada));
      await bind(boPage, url, await codeOf(bo));
      await expect.poll(() => boPage.locator("#player").textContent()).toContain("Bo");
      expect(await boPage.locator("#send").textContent()).toBe("发送");
      await send(adaPage, "/system item minecraft:emerald");
      await adaPage.locator(".card", { hasText: "minecraft:emerald" }).last().waitFor();
      await send(boPage, "/system item minecraft:coal");
      await boPage.locator(".card", { hasText: "minecraft:coal" }).last().waitFor();
      expect(await boPage.locator(".card", { hasText: "minecraft:emerald" }).count()).toBe(0);
      expect(await adaPage.locator(".card", { hasText: "minecraft:coal" }).count()).toBe(0);
      await boPage.screenshot({ path: join(SHOTS, "5-second-player.png"), fullPage: true });
    } finally {
      await first.close();
      await second.close();
      ada.quit();
      bo.quit();
    }
  }, 90_000);

  it("speaks a live card when Speech is on (the card's narration), never a restored one", async () => {
    const sam = await joinPlayer(server.port, "Sam");
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      // the browser's speech synthesis, recorded
      await page.addInitScript(() => {
        const spoken: string[] = [];
        Object.assign(window, { spoken });
        Object.defineProperty(window, "speechSynthesis", {
          value: {
            speak: (utterance: { text: string }) => spoken.push(utterance.text),
            cancel: () => {},
            getVoices: () => [],
          },
        });
      });
      await bind(page, url, await codeOf(sam));
      await page.getByLabel("Speech").check();
      await send(page, "/system checkin");
      await page.locator(".card", { hasText: "Checked in!" }).last().waitFor();
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { spoken: string[] }).spoken))
        .toContain("Checked in: day 1 of your streak.");
      // the reward's notice is a live card too (delivered a moment later): spoken as it arrives
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { spoken: string[] }).spoken))
        .toContain("Your check-in reward has arrived.");
      await page.reload();
      await page.locator(".card.history", { hasText: "Checked in!" }).first().waitFor();
      // a request after the reload: its card arrives after anything the server sent before it
      await send(page, "/system balance");
      await page.locator(".card:not(.history)", { hasText: "Your points" }).last().waitFor();
      const spoken = await page.evaluate(() => (window as unknown as { spoken: string[] }).spoken);
      expect(spoken.filter((line) => /Checked in|check-in reward/.test(line))).toEqual([]);
    } finally {
      await context.close();
      sam.quit();
    }
  }, 90_000);

  it("gives operators an admin page: usage per player per day as a chart, access, event tasks, deliveries", async () => {
    const admin = await joinPlayer(server.port, "Admin");
    const player = await joinPlayer(server.port, "Lou");
    const context = await browser.newContext();
    const other = await browser.newContext();
    try {
      const page = await context.newPage();
      await bind(page, url, await codeOf(admin));
      // a model call, so there is usage to chart
      model.script({ text: JSON.stringify({ type: "answer", text: "Build a lighthouse." }) });
      await send(page, "/reason what should I build");
      await page.locator(".card", { hasText: "Build a lighthouse." }).waitFor();
      await page.getByRole("link", { name: "Admin" }).click();
      await page.getByRole("img", { name: "Model calls per player per day" }).waitFor();
      expect(await page.locator("svg.chart rect").count()).toBeGreaterThan(0);
      expect(await page.locator("main > table").first().textContent()).toContain("Admin");
      await page
        .getByRole("heading", { name: "Grants and modes" })
        .or(page.getByText("Grants and modes"))
        .first()
        .waitFor();
      await page.getByRole("heading", { name: "Deliveries needing resolution" }).waitFor();
      await page.getByRole("heading", { name: "Recent event tasks" }).waitFor();
      await page.screenshot({ path: join(SHOTS, "7-admin.png"), fullPage: true });
      // a player's browser sees no link and is refused the page
      const lou = await other.newPage();
      await bind(lou, url, await codeOf(player));
      await expect.poll(() => lou.locator("#player").textContent()).toContain("Lou");
      expect(await lou.getByRole("link", { name: "Admin" }).isVisible()).toBe(false);
      const refused = await lou.goto(`${url}/admin`);
      expect(refused?.status()).toBe(403);
    } finally {
      await context.close();
      await other.close();
      admin.quit();
      player.quit();
    }
  }, 90_000);

  it("locks a client out after five wrong codes, a right one included", async () => {
    const cy = await joinPlayer(server.port, "Cy");
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      for (let attempt = 1; attempt <= 4; attempt++) {
        await bind(page, url, "WRONGCDE");
        await page.getByRole("alert").filter({ hasText: "wrong or has expired" }).waitFor();
      }
      await bind(page, url, "WRONGCDE");
      await page.getByRole("alert").filter({ hasText: "Too many wrong codes" }).waitFor();
      await bind(page, url, await codeOf(cy));
      await page.getByRole("alert").filter({ hasText: "Too many wrong codes" }).waitFor();
      await page.screenshot({ path: join(SHOTS, "6-locked.png"), fullPage: true });
    } finally {
      await context.close();
      cy.quit();
    }
  }, 90_000);
});
