import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  joinPlayer,
  type Player,
  type ShippedServer,
  speak,
  startShipped,
  tempFolder,
} from "./system-support.js";

/** Debian's chromium (`.ci/run` installs it); PANEL_CHROMIUM overrides the path. */
const CHROMIUM = process.env.PANEL_CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = process.env.PANEL_SCREENSHOTS ?? tempFolder("system-panel-reading-");

const codeOf = async (player: Player, offered: RegExp): Promise<string> => {
  const reply = await player.say("/system bind", (m) => offered.test(m.text));
  const code = /([A-Z0-9]{8})/.exec(reply.text)?.[1];
  if (code === undefined) throw new Error(`no code in ${reply.text}`);
  return code;
};

const send = async (page: Page, text: string): Promise<void> => {
  await page.getByLabel("Message").fill(text);
  await page.getByLabel("Message").press("Enter");
};

/** The values the message input offers now (its datalist). */
const completions = (page: Page): Promise<string[]> =>
  page
    .locator("#completions option")
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));

/** The fonts Chromium actually drew a node's text with (family and glyph count), as its devtools report them. */
const renderedFonts = async (
  page: Page,
  selector: string,
): Promise<{ familyName: string; glyphCount: number }[]> => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("DOM.enable");
  await cdp.send("CSS.enable");
  const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
  const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
  await cdp.detach();
  return fonts;
};

/**
 * The panel reads well, in Chinese and in English (Debian's chromium with fonts-noto-cjk): Chinese cards are drawn
 * with a CJK face named in the page's font stack (never boxes), the input line stays in view while a long
 * conversation scrolls, a restored binding card hides its spent code, `/system card nonsense` is answered as in
 * game, and restored history is in the order it happened.
 */
describe("the web panel reads well", () => {
  let server: ShippedServer;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);
    mkdirSync(SHOTS, { recursive: true });
    server = await startShipped();
    url = server.system.panelUrl ?? "";
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const bound = async (
    player: Player,
    offered: RegExp,
    locale: string,
  ): Promise<{ page: Page; code: string }> => {
    const code = await codeOf(player, offered);
    const page = await (
      await browser.newContext({ locale, viewport: { width: 800, height: 600 } })
    ).newPage();
    await page.goto(url);
    await page.getByLabel("Binding code").fill(code);
    await page.getByLabel("Binding code").press("Enter");
    await expect.poll(() => page.locator("#player").textContent()).toContain(player.bot.username);
    return { page, code };
  };

  it("zh: a Chinese card drawn with a CJK face of the page's font stack; the spent code hidden; history in order", async () => {
    const li = await joinPlayer(server.port, "LiLei");
    await speak(server, li, "zh_cn");
    const { page, code } = await bound(li, /网页面板|绑定码/, "zh-CN");
    try {
      await send(page, "/system item 钻石");
      const card = page.locator("#log .card", { hasText: "minecraft:diamond" }).last();
      await card.waitFor();
      const family = await card.evaluate((element) => getComputedStyle(element).fontFamily);
      expect(family).toContain("Noto Sans CJK SC");
      await page.evaluate(() =>
        document.querySelector("#log .card:last-child")?.setAttribute("id", "zh-card"),
      );
      const fonts = await renderedFonts(page, "#zh-card");
      // every character drawn: the Chinese ones by a CJK face, none by a last-resort box font
      expect(fonts.some((font) => /CJK/.test(font.familyName) && font.glyphCount > 0)).toBe(true);
      expect(fonts.some((font) => /LastResort|Unifont/i.test(font.familyName))).toBe(false);
      await page.screenshot({ path: join(SHOTS, "zh-card.png"), fullPage: true });

      // the restored conversation: the binding code is spent, so it is not shown again; entries in order
      await page.reload();
      const restored = page.locator(".card.history", { hasText: "minecraft:diamond" });
      await restored.first().waitFor();
      const texts = await page.locator("#history .card").allTextContents();
      expect(texts.join("\n")).not.toContain(code);
      expect(texts.join("\n")).toContain("••••••••");
      const typedAt = texts.indexOf("/system item 钻石");
      const answeredAt = texts.findIndex((text) => text.includes("minecraft:diamond"));
      expect(typedAt).toBeGreaterThan(texts.indexOf("/system bind"));
      expect(answeredAt).toBe(typedAt + 1);
      await page.screenshot({ path: join(SHOTS, "zh-history.png"), fullPage: true });

      // the panel completes arguments as the game does, in the player's language
      await page.getByLabel("Message").fill("/system item 钻");
      await expect
        .poll(() => completions(page))
        .toEqual(expect.arrayContaining(["/system item 钻石", "/system item 钻石剑"]));
    } finally {
      await page.context().close();
      li.quit();
    }
  }, 120_000);

  it("en: the input line stays in view while the conversation scrolls; /system card nonsense is answered as in game", async () => {
    const pia = await joinPlayer(server.port, "Pia");
    const { page } = await bound(pia, /Your web panel code/, "en-US");
    try {
      for (let line = 0; line < 8; line++) {
        await send(page, "/system item minecraft:diamond");
        await expect
          .poll(() => page.locator("#log .card", { hasText: "ID: minecraft:diamond" }).count())
          .toBe(line + 1);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(
        true,
      );
      const box = await page.getByLabel("Message").boundingBox();
      expect(box).not.toBeNull();
      expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(600);
      expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
      await page.screenshot({ path: join(SHOTS, "en-scrolled.png") });

      await page.getByLabel("Message").fill("item diamond sw");
      await expect.poll(() => completions(page)).toEqual(["item diamond Sword"]);
      await page.getByLabel("Message").fill("/system item dia");
      await expect
        .poll(() => completions(page))
        .toEqual(expect.arrayContaining(["/system item Diamond Pickaxe"]));
      await page.getByLabel("Message").fill("");

      const inGame = await pia.say("/system card nonsense", (m) => /not valid/.test(m.text));
      await send(page, "/system card nonsense");
      const answer = page.locator("#log .card", { hasText: "not valid" }).last();
      await answer.waitFor();
      expect(await answer.textContent()).toBe(inGame.text);
      expect(await page.locator("#log .user").last().textContent()).toBe("/system card nonsense");
      await page.screenshot({ path: join(SHOTS, "en-card-nonsense.png"), fullPage: true });
    } finally {
      await page.context().close();
      pia.quit();
    }
  }, 120_000);
});
