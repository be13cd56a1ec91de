import { existsSync } from "node:fs";
import type { Bot } from "mineflayer";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatMessage, command, recordChat } from "../e2e/assistant-support.js";
import {
  type GatewayUnderTest,
  joinBot,
  type PlainBackend,
  startGatewayFor,
  startPlainBackend,
} from "./gateway-support.js";

/** Debian's chromium (`.ci/run` installs it); PANEL_CHROMIUM overrides the path. */
const CHROMIUM = process.env.PANEL_CHROMIUM ?? "/usr/bin/chromium";

/**
 * The web panel of a gateway: `system gateway` serves it as `npm start` does, for the players who joined through
 * the relay. A code from `/system bind` typed through the gateway binds Debian's chromium; a command typed in the
 * panel shows its card; `/system unbind` through the gateway revokes the panel at once.
 */
describe("gateway: the web panel (chromium)", () => {
  let backend: PlainBackend;
  let gateway: GatewayUnderTest;
  let browser: Browser;
  let bot: Bot;
  let messages: ChatMessage[];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);
    backend = await startPlainBackend();
    gateway = await startGatewayFor(backend.port, { assistant: true });
    bot = await joinBot(gateway.port, "Pia", (joining) => {
      messages = recordChat(joining);
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    bot?.quit();
    await gateway?.close();
    await backend?.close();
  });

  it("binds a browser to a player of the relay, runs what is typed there and is revoked by /system unbind", async () => {
    const url = gateway.gateway.panelUrl ?? "";
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(gateway.logger.lines.join("\n")).not.toContain("web panel not started");
    const offer = await command(bot, messages, "/system bind", (m) =>
      m.text.startsWith("Your web panel code"),
    );
    const code = /code: ([A-Z0-9]{8})/.exec(offer.text)?.[1] ?? "";
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(url);
      await page.getByLabel("Binding code").fill(code);
      await page.getByRole("button", { name: "Bind" }).click();
      await expect.poll(() => page.locator("#player").textContent()).toContain("Pia");
      await page.getByLabel("Message").fill("/system item minecraft:diamond");
      await page.getByLabel("Message").press("Enter");
      await page.locator(".card", { hasText: "ID: minecraft:diamond" }).last().waitFor();
      const unbound = await command(bot, messages, "/system unbind", (m) => m.text.startsWith("Unbound"));
      expect(unbound.text).toBe("Unbound: 1 web panel session(s) ended.");
      await page.getByRole("status").filter({ hasText: "REVOKED" }).waitFor();
    } finally {
      await context.close();
    }
  }, 90_000);
});
