import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import {
  joinPlayer,
  modelEnvironment,
  type Player,
  type ShippedServer,
  speak,
  startShipped,
  tempFolder,
} from "./system-support.js";

const CHROMIUM = process.env.PANEL_CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = process.env.PANEL_SCREENSHOTS ?? tempFolder("system-panel-telemetry-shots-");

const codeOf = async (player: Player): Promise<string> => {
  const reply = await player.say("/system bind", (m) => /([A-Z0-9]{8})/.test(m.text));
  const code = /([A-Z0-9]{8})/.exec(reply.text)?.[1];
  if (code === undefined) throw new Error(`no code in ${reply.text}`);
  return code;
};

const bind = async (page: Page, url: string, code: string): Promise<void> => {
  await page.goto(url);
  await page.locator("input").first().fill(code);
  await page.locator("input").first().press("Enter");
};

/** The number the requests chart's bars add up to (each bar's title ends in its count). */
const chartedRequests = (page: Page): Promise<number> =>
  page
    .locator('[data-chart="requests"] rect title')
    .evaluateAll((titles) =>
      titles.reduce((sum, title) => sum + Number(/: (\d+)$/u.exec(title.textContent ?? "")?.[1] ?? 0), 0),
    );

/**
 * The operators' page of the shipped server shows the metrics registry as charts, refreshed over the panel's
 * WebSocket, in the operator's language (zh_cn here), checked in Debian's chromium with a screenshot.
 */
describe("operators' page charts (shipped server, chromium)", () => {
  let model: ScriptedModelServer;
  let server: ShippedServer;
  let browser: Browser;
  let admin: Player;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium`);
    model = await ScriptedModelServer.start();
    server = await startShipped({ environment: modelEnvironment(model), ops: ["Admin"] });
    admin = await joinPlayer(server.port, "Admin");
    await speak(server, admin, "zh_cn");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    admin?.quit();
    await server?.close();
    await model?.close();
  });

  it("charts requests by route path, latency, model calls and tokens per model, workflows; live and in Chinese", async () => {
    model.script({
      text: JSON.stringify({ type: "answer", text: "Build a lighthouse." }),
      usage: { promptTokens: 321, completionTokens: 45 },
    });
    await admin.say("/reason what should I build", (m) => m.text.includes("Build a lighthouse."));
    await admin.say("/system help", (m) => m.text.length > 0);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("console", (message) => problems.push(`console ${message.type()}: ${message.text()}`));
      page.on("pageerror", (error) => problems.push(`error: ${error.message}`));
      await bind(page, server.system.panelUrl as string, await codeOf(admin));
      await expect.poll(() => page.locator("#player").textContent(), { timeout: 20_000 }).toContain("Admin");
      await page.goto(`${server.system.panelUrl}/admin`);
      await page
        .locator("#telemetry[data-updated]")
        .waitFor({ timeout: 15_000 })
        .catch(async (error: unknown) => {
          throw new Error(
            `${String(error)}\n${problems.join("\n")}\n${(await page.content()).slice(0, 1500)}`,
          );
        });
      await page.getByRole("heading", { name: "每分钟请求数（按路由路径）" }).waitFor();
      await page.getByRole("heading", { name: "每天每个模型的调用次数与 token" }).waitFor();
      expect(await page.locator('[data-chart="requests"] .legend').textContent()).toContain("command");
      expect(await page.locator('[data-chart="model"] table').textContent()).toContain("321 / 45");
      expect(await page.locator('[data-chart="model"] table').textContent()).toContain("scripted-test-model");
      expect(await page.locator('[data-chart="workflows"]').textContent()).toContain("system:reasoning");
      expect(await page.locator('[data-chart="latency"] polyline').count()).toBe(2);
      expect(await page.locator('[data-chart="deliveries"] .figure').textContent()).toBe("0");
      const before = await chartedRequests(page);
      expect(before).toBeGreaterThanOrEqual(2);
      // a new request reaches the open page over the WebSocket, without a reload
      await admin.say("/system help", (m) => m.text.length > 0);
      await expect.poll(() => chartedRequests(page), { timeout: 20_000 }).toBeGreaterThan(before);
      await page.screenshot({ path: join(SHOTS, "admin-telemetry-zh.png"), fullPage: true });
    } finally {
      await context.close();
    }
  }, 90_000);
});
