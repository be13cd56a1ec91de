import { createServer, type Server } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PANEL_CONFIG } from "../../src/host/panel/panel-config.js";
import { joinPlayer, type ShippedServer, startShipped } from "./system-support.js";

/**
 * Holds the default panel address as a first server would. When something else holds it already, that is the
 * same situation (the port is taken), so the holder is then not needed.
 */
const holdDefaultPanelPort = (): Promise<Server | undefined> =>
  new Promise((resolve, reject) => {
    const holder = createServer();
    holder.once("error", (error: NodeJS.ErrnoException) =>
      error.code === "EADDRINUSE" ? resolve(undefined) : reject(error),
    );
    holder.listen(DEFAULT_PANEL_CONFIG.port, DEFAULT_PANEL_CONFIG.host, () => resolve(holder));
  });

/** `panel.json` as the first start writes it: the defaults, port 8765. */
const DEFAULT_PANEL_FILES = { "config/system/panel.json": JSON.stringify(DEFAULT_PANEL_CONFIG) };

describe("a second server beside one holding the panel port (shipped server)", () => {
  let holder: Server | undefined;
  let server: ShippedServer | undefined;
  beforeAll(async () => {
    holder = await holdDefaultPanelPort();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  afterAll(async () => {
    await new Promise((resolve) => (holder === undefined ? resolve(undefined) : holder.close(resolve)));
  });

  it("starts its game without the panel and says in one line that the port is taken and what to do", async () => {
    server = await startShipped({ files: DEFAULT_PANEL_FILES });
    expect(server.system.panelUrl).toBeUndefined();
    const lines = server.logger.lines.filter((line) => line.includes("web panel"));
    expect(lines).toEqual([
      'WARN web panel not started: 127.0.0.1:8765 is already in use (another server?); start with --panel-port N (0: any free port) or set "port" in config/system/panel.json',
    ]);
    const player = await joinPlayer(server.port, "Steve");
    const card = await player.say("/system item minecraft:diamond", (m) =>
      m.text.includes("minecraft:diamond"),
    );
    expect(card.text).toMatch(/Diamond/);
    player.quit();
  });

  it("with --panel-port 0 serves its panel on a free port, the address players are given to bind", async () => {
    server = await startShipped({ files: DEFAULT_PANEL_FILES, flags: ["--panel-port", "0"] });
    const url = server.system.panelUrl;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toBe("http://127.0.0.1:8765");
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<html");
    const player = await joinPlayer(server.port, "Alex");
    const offer = await player.say("/system bind", (m) => m.text.startsWith("Your web panel code"));
    expect(offer.text).toContain(url);
    expect(server.logger.has("web panel not started")).toBe(false);
    player.quit();
  });

  it("keeps a panel that panel.json turns off off, and says --panel-port was ignored", async () => {
    server = await startShipped({
      files: { "config/system/panel.json": JSON.stringify({ enabled: false }) },
      flags: ["--panel-port", "0"],
    });
    expect(server.system.panelUrl).toBeUndefined();
    expect(server.logger.lines.filter((line) => line.includes("panel"))).toEqual([
      "INFO --panel-port ignored: the web panel is off (enabled: false in panel.json)",
    ]);
  });
});
