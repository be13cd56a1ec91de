import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Bot } from "mineflayer";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningGateway, startGateway } from "../../src/host/gateway/start-gateway.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import { type ChatMessage, command, recordChat } from "../e2e/assistant-support.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";
import { type RconStandIn, startRconStandIn } from "../support/rcon-stand-in.js";
import { joinBot, type PlainBackend, startPlainBackend, tempFolder, waitFor } from "./gateway-support.js";

const PASSWORD = "stand-in effects";

/**
 * A gateway of a network (`system gateway` with storage.json naming PostgreSQL), in front of a plain flying-squid
 * backend with the RCON STAND-IN of the test support: a check-in's reward goes through the network's outbox and
 * is given by this gateway over RCON, to the player it hosts, done after the backend's save.
 */
describe("a gateway of a network: deliveries over RCON from the shared outbox", () => {
  let cluster: PostgresCluster;
  let database: pg.Pool;
  let backend: PlainBackend;
  let standIn: RconStandIn;
  let gateway: RunningGateway;
  const bots: Bot[] = [];
  const logger = new MemoryLogger();

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const url = await cluster.createDatabase("network");
    database = new pg.Pool({ connectionString: url, max: 2 });
    backend = await startPlainBackend();
    standIn = await startRconStandIn({ server: backend.server, password: PASSWORD });
    const dataDir = tempFolder("network-gateway-data-");
    const config = join(dataDir, "config/system");
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "rcon.secret"), `${PASSWORD}\n`);
    chmodSync(join(config, "rcon.secret"), 0o600);
    writeFileSync(
      join(config, "gateway.json"),
      JSON.stringify({
        serverDir: tempFolder("network-gateway-server-"),
        rcon: {
          host: "127.0.0.1",
          port: standIn.port,
          passwordFile: "config/system/rcon.secret",
          saveIntervalSeconds: 0,
        },
      }),
    );
    writeFileSync(join(config, "advancements.json"), JSON.stringify({ rules: [] }));
    writeFileSync(join(config, "storage.json"), JSON.stringify({ backend: "postgres", url, server: "g" }));
    gateway = await startGateway({
      argv: ["--backend", `127.0.0.1:${backend.port}`, "--port", "0", "--data-dir", dataDir],
      logger,
      announce: () => {},
      environment: {},
    });
  }, 120_000);

  afterAll(async () => {
    for (const bot of bots) bot.quit();
    await gateway?.close();
    await standIn?.close();
    await backend?.close();
    await database?.end();
    await cluster?.stop();
  });

  it("gives a check-in's reward from the outbox over RCON, done after a save, and tells the player", async () => {
    let chat: ChatMessage[] = [];
    const bot = await joinBot(gateway.port, "Steve", (created) => {
      chat = recordChat(created);
    });
    bots.push(bot);
    // presence: the gateway hosts Steve under its storage.json name
    await waitFor(() => (logger.has("deliveries: server g of the network") ? true : undefined));
    const done = await command(bot, chat, "/system checkin", (m) => m.text.startsWith("Checked in!"));
    expect(done.text).toContain("Bread × 3");
    await waitFor(() => chat.find((m) => /check-in reward has arrived/.test(m.text)), 20_000);
    const lastGive = standIn.commands.findLastIndex((line) => line.startsWith("give Steve minecraft:bread"));
    expect(lastGive).toBeGreaterThanOrEqual(0);
    expect(standIn.commands.indexOf("save-all", lastGive)).toBeGreaterThan(lastGive);
    // marked done right after the notice (the give resolved once saved)
    let rows: unknown[] = [];
    for (let tries = 0; tries < 200; tries++) {
      rows = (
        await database.query("SELECT status, server FROM system_outbox WHERE player_id = $1", [
          offlineUuid("Steve"),
        ])
      ).rows;
      if ((rows[0] as { status?: string } | undefined)?.status === "done") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(rows).toEqual([{ status: "done", server: "g" }]);
    const presence = await database.query("SELECT server FROM system_presence WHERE player_id = $1", [
      offlineUuid("Steve"),
    ]);
    expect(presence.rows).toEqual([{ server: "g" }]);
  });
});
