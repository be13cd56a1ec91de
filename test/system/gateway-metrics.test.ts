import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ADVANCEMENTS } from "../../src/assistant/advancement-rules.js";
import { type RunningGateway, startGateway } from "../../src/host/gateway/start-gateway.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { recordChat } from "../e2e/assistant-support.js";
import { OtlpReceiver } from "../support/otlp-receiver.js";
import { type RconStandIn, startRconStandIn } from "../support/rcon-stand-in.js";
import { joinBot, type PlainBackend, startPlainBackend, tempFolder } from "./gateway-support.js";

const PASSWORD = "stand-in metrics";

/** The value of one sample line of the exposition (0 when absent). */
const sample = (text: string, line: RegExp): number => Number(line.exec(text)?.[1] ?? 0);

/**
 * The gateway as `system gateway` starts it, with `--metrics-port`: frames and bytes relayed each way, frames it
 * decoded, players relayed, RCON commands by outcome with their latency and the deliveries' waits for a save-all
 * (the welcome kit given over the RCON stand-in).
 */
describe("gateway metrics", () => {
  let backend: PlainBackend;
  let standIn: RconStandIn;
  let gateway: RunningGateway;
  let receiver: OtlpReceiver;
  const bots: Bot[] = [];

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    backend = await startPlainBackend();
    standIn = await startRconStandIn({ server: backend.server, password: PASSWORD });
    const dataDir = tempFolder("gateway-metrics-data-");
    const config = join(dataDir, "config/system");
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "rcon.secret"), `${PASSWORD}\n`);
    chmodSync(join(config, "rcon.secret"), 0o600);
    writeFileSync(
      join(config, "gateway.json"),
      JSON.stringify({
        rcon: {
          host: "127.0.0.1",
          port: standIn.port,
          passwordFile: "config/system/rcon.secret",
          saveIntervalSeconds: 0,
        },
      }),
    );
    writeFileSync(
      join(config, "advancements.json"),
      JSON.stringify({
        rules: DEFAULT_ADVANCEMENTS.rules.filter((rule) => (rule as { id: string }).id === "welcome"),
      }),
    );
    gateway = await startGateway({
      argv: [
        "--backend",
        `127.0.0.1:${backend.port}`,
        "--port",
        "0",
        "--metrics-port",
        "0",
        "--data-dir",
        dataDir,
      ],
      logger: new MemoryLogger(),
      announce: () => {},
      environment: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
    });
  }, 120_000);

  afterAll(async () => {
    for (const bot of bots) bot.quit();
    await gateway?.close();
    await standIn?.close();
    await backend?.close();
    await receiver?.close();
  });

  it("counts relayed frames, players, RCON commands and save-all waits", async () => {
    const bot = await joinBot(gateway.port, "Steve", (created) => {
      recordChat(created);
    });
    bots.push(bot);
    const scrape = async (): Promise<string> => (await fetch(gateway.metricsUrl as string)).text();
    // the welcome kit is given over RCON and done after a save-all
    await expect
      .poll(async () => sample(await scrape(), /system_rcon_save_waits_total\{outcome="saved"\} (\d+)/u), {
        timeout: 30_000,
      })
      .toBeGreaterThanOrEqual(1);
    const text = await scrape();
    expect(sample(text, /system_gateway_players (\d+)/u)).toBe(1);
    expect(sample(text, /system_gateway_frames_total\{direction="to_client"\} (\d+)/u)).toBeGreaterThan(10);
    expect(sample(text, /system_gateway_frames_total\{direction="to_server"\} (\d+)/u)).toBeGreaterThan(0);
    expect(sample(text, /system_gateway_bytes_total\{direction="to_client"\} (\d+)/u)).toBeGreaterThan(1000);
    expect(
      sample(text, /system_gateway_frames_decoded_total\{direction="to_client"\} (\d+)/u),
    ).toBeGreaterThan(0);
    expect(sample(text, /system_rcon_commands_total\{command="give",outcome="ok"\} (\d+)/u)).toBeGreaterThan(
      0,
    );
    expect(
      sample(text, /system_rcon_commands_total\{command="save-all",outcome="ok"\} (\d+)/u),
    ).toBeGreaterThan(0);
    expect(text).toMatch(/system_rcon_command_duration_seconds_count\{command="give"\} [1-9]/u);
    expect(text).not.toContain("Steve");
  }, 60_000);

  it("traces the welcome kit's RCON commands inside its tool call, found through the give's signal", async () => {
    // the first test's player got the welcome kit (a durable event task) through RCON
    const telemetry = gateway.telemetry.telemetry as { flush?: () => Promise<void> };
    await expect
      .poll(
        async () => {
          await telemetry.flush?.();
          return receiver.spans.some((span) => span.name === "rcon give");
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const give = receiver.spans.find((span) => span.name === "rcon give");
    const trace = receiver.trace(give?.traceId ?? "");
    const tool = trace.find((span) => span.spanId === give?.parentSpanId);
    expect(tool?.name).toMatch(/^execute_tool /u);
    expect(trace.find((span) => span.parentSpanId === undefined)?.name).toBe("request event");
    expect(give?.attributes["assistant.rcon.command"]).toBe("give");
  });
});
