import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  joinPlayer,
  type Player,
  type ShippedServer,
  startShipped,
  tempFolder,
  uuidOf,
} from "./system-support.js";

const TOKEN = "scrape-token-0123456789abcdef";

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** This machine's first address that is not loopback (a scraper on another machine comes from such an address). */
const outsideAddress = (): string | undefined =>
  Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry !== undefined && !entry.internal && entry.family === "IPv4")?.address;

/**
 * The shipped server (startSystem) with its metrics: players' requests counted by route path, the exposition valid
 * for promtool, a real Prometheus scraping `--metrics-port`, other machines refused without the token, and no
 * player's name or UUID in any label.
 */
describe("metrics of the shipped server", () => {
  let server: ShippedServer;
  let metricsPort: number;
  const players: Player[] = [];
  const names = ["Alice", "Bobby", "Carol"];

  beforeAll(async () => {
    metricsPort = await freePort();
    server = await startShipped({
      flags: ["--metrics-port", String(metricsPort)],
      files: {
        "config/system/telemetry.json": JSON.stringify({
          metrics: { bearerTokenFile: "metrics-token.txt", host: "0.0.0.0" },
        }),
        "config/system/metrics-token.txt": `${TOKEN}\n`,
      },
    });
    for (const name of names) players.push(await joinPlayer(server.port, name));
    for (const player of players) {
      await player.say("/system help", (message) => /system/i.test(message.text));
      await player.say("/system checkin", (message) => /check|day|point/i.test(message.text));
    }
  }, 120_000);

  afterAll(async () => {
    for (const player of players) player.quit();
    await server?.close();
  });

  const scrape = async (url: string, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(url, { headers });

  it("counts requests by entry and route path on the panel's /metrics, in a format promtool accepts", async () => {
    const response = await scrape(`${server.system.panelUrl}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(
      /system_requests_total\{entry="chat",route="command",workflow="[^"]+",outcome="ok"\} [1-9]/u,
    );
    expect(text).toMatch(
      /system_request_duration_seconds_bucket\{le="\+Inf",entry="chat",route="command"\} [1-9]/u,
    );
    expect(text).toMatch(/system_executor_queue_depth\{executor="interactive"\} 0/u);
    expect(text).toContain("process_cpu_seconds_total");
    const lint = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
    expect(lint.stderr + lint.stdout).toBe("");
    expect(lint.status).toBe(0);
  });

  it("never carries a player's name or UUID in a label", async () => {
    const text = await (await scrape(server.system.metricsUrl?.replace("0.0.0.0", "127.0.0.1") ?? "")).text();
    for (const name of names) {
      expect(text).not.toContain(name);
      expect(text.toLowerCase()).not.toContain(name.toLowerCase());
      expect(text).not.toContain(uuidOf(server.system, name));
    }
  });

  it("answers another machine 401 without the bearer token and 200 with it", async () => {
    const address = outsideAddress();
    if (address === undefined) return;
    const url = `http://${address}:${metricsPort}/metrics`;
    expect((await scrape(url)).status).toBe(401);
    expect((await scrape(url, { Authorization: "Bearer wrong-token-0123456789" })).status).toBe(401);
    const allowed = await scrape(url, { Authorization: `Bearer ${TOKEN}` });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain("system_requests_total");
  });

  it("is scraped by a real Prometheus, which finds the requests by route path", async () => {
    const folder = tempFolder("system-prometheus-");
    const port = await freePort();
    mkdirSync(join(folder, "data"));
    writeFileSync(
      join(folder, "prometheus.yml"),
      [
        "global:",
        "  scrape_interval: 1s",
        "scrape_configs:",
        "  - job_name: system",
        "    static_configs:",
        `      - targets: ["127.0.0.1:${metricsPort}"]`,
        "",
      ].join("\n"),
    );
    const prometheus = spawn(
      "prometheus",
      [
        `--config.file=${join(folder, "prometheus.yml")}`,
        `--storage.tsdb.path=${join(folder, "data")}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: "ignore" },
    );
    try {
      const query = encodeURIComponent(
        'sum by (route) (system_requests_total{job="system",route="command"})',
      );
      await expect
        .poll(
          async () => {
            try {
              const answer = (await (
                await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${query}`)
              ).json()) as {
                data?: { result?: { metric: { route: string }; value: [number, string] }[] };
              };
              return Number(answer.data?.result?.[0]?.value[1] ?? 0);
            } catch {
              return 0;
            }
          },
          { timeout: 60_000, interval: 500 },
        )
        .toBeGreaterThanOrEqual(6);
    } finally {
      prometheus.kill("SIGTERM");
    }
  }, 90_000);
});
