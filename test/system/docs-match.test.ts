import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayConfigPath, loadGatewayConfig } from "../../src/host/gateway/gateway-config.js";
import { silentLogger } from "../../src/util/logger.js";
import { joinPlayer, type Player, type ShippedServer, startShipped, tempFolder } from "./system-support.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const read = (path: string): string => readFileSync(`${ROOT}/${path}`, "utf8");

/** Where the docs quote the start-up line `assistant ready: N features, M workflows`. */
const QUOTING_READY = ["README.md", "docs/admin.md", "docs/connecting.md"];

/**
 * What the docs say of the shipped server, checked against it: the start-up line they quote (feature and
 * workflow counts), the gateway.json they call the written defaults, and the plain-text examples the README says
 * work without a model.
 */
describe("the docs match the shipped server", () => {
  let server: ShippedServer;
  let alex: Player;

  beforeAll(async () => {
    server = await startShipped();
    alex = await joinPlayer(server.port, "Alex");
  }, 120_000);

  afterAll(async () => {
    alex?.quit();
    await server?.close();
  });

  it("quotes the start-up line a fresh server prints, counts included", () => {
    const ready = server.logger.lines.find((line) => line.startsWith("INFO assistant ready: "));
    expect(ready).toMatch(/^INFO assistant ready: \d+ features, \d+ workflows$/);
    const printed = ready?.slice("INFO ".length);
    for (const path of QUOTING_READY) {
      const quoted = [...read(path).matchAll(/assistant ready: \d+ features, \d+ workflows/g)].map(
        (m) => m[0],
      );
      expect(quoted.length, path).toBeGreaterThan(0);
      for (const line of quoted) expect(line, path).toBe(printed);
    }
  });

  it("shows as gateway.json's defaults exactly the file the first start writes", async () => {
    const dataDir = tempFolder("docs-gateway-json-");
    await loadGatewayConfig(dataDir, silentLogger);
    const written = JSON.parse(readFileSync(gatewayConfigPath(dataDir), "utf8"));
    const block = /<!-- gateway\.json defaults -->\n```json\n([\s\S]*?)\n```/.exec(read("docs/gateway.md"));
    expect(block?.[1], "docs/gateway.md has the marked defaults block").toBeDefined();
    expect(JSON.parse(block?.[1] ?? "null")).toEqual(written);
  });

  it("answers the README's plain-text examples without a model", async () => {
    const readme = read("README.md");
    expect(readme).toContain(
      "plain text that routes locally without a model, such as\n`/system 我的背包里有什么`",
    );
    const inventory = await alex.say("/system 我的背包里有什么", (m) => /Inventory|背包/.test(m.text));
    expect(inventory.text).not.toMatch(/not sure|model/i);
    const balance = await alex.say("/system what is my balance", (m) => /points|balance/i.test(m.text));
    expect(balance.text).not.toMatch(/not sure|model/i);
    await expect
      .poll(() => server.logger.lines.filter((line) => line.includes(" Alex ")))
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(/"我的背包里有什么" semantic:direct → system:player_query: succeeded$/),
          expect.stringMatching(/"what is my balan…" semantic:direct → system:balance: succeeded$/),
        ]),
      );
  });
});
