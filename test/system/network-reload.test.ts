import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import { TEST_MODEL } from "../support/test-model.js";
import { joinPlayer, type Player, type ShippedServer, startShipped, waitFor } from "./system-support.js";

/**
 * Two shipped servers (startSystem, separate data folders) of one network: storage.json points both at one
 * database of a throw-away cluster. Knowledge an admin adds on A is found by a player's question on B; an
 * admin's `/system reload` on A makes B reload its config; after a PostgreSQL restart that still works.
 */
describe("a network of two servers on one PostgreSQL", () => {
  let cluster: PostgresCluster;
  let model: ScriptedModelServer;
  let a: ShippedServer;
  let b: ShippedServer;
  let admin: Player;
  let alex: Player;

  const reloadsOnB = () =>
    b.logger.lines.filter((line) => line.includes("storage: reloaded config (/system reload")).length;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const url = await cluster.createDatabase("network");
    const files = { "config/system/storage.json": JSON.stringify({ backend: "postgres", url, poolSize: 4 }) };
    model = await ScriptedModelServer.start();
    a = await startShipped({ ops: ["Admin"], files });
    b = await startShipped({ files });
    admin = await joinPlayer(a.port, "Admin");
    alex = await joinPlayer(b.port, "Alex");
  }, 180_000);

  afterAll(async () => {
    admin?.quit();
    alex?.quit();
    await a?.close();
    await b?.close();
    await model?.close();
    await cluster?.stop();
  });

  it("finds on B the knowledge an admin added on A", async () => {
    await admin.say("/system knowledge add Beacon pyramid | A beacon needs a pyramid of iron blocks.", (m) =>
      /added/.test(m.text),
    );
    const answer = await alex.say("/system question beacon pyramid", (m) =>
      m.text.includes("pyramid of iron"),
    );
    expect(answer.text).toContain("A beacon needs a pyramid of iron blocks.");
  });

  it("reloads B's config when an admin runs /system reload on A, and not the other way round", async () => {
    expect(b.logger.has("model not configured")).toBe(true);
    // the network's operators deploy the same config file to every server, then reload once
    const settings = JSON.stringify({ baseUrl: model.baseUrl, model: TEST_MODEL, apiKey: "test-key" });
    writeFileSync(join(a.folder, "config", "system", "model.json"), settings);
    writeFileSync(join(b.folder, "config", "system", "model.json"), settings);
    await admin.say("/system reload", (m) => /Reloaded/.test(m.text));
    await waitFor(() => (reloadsOnB() === 1 ? true : undefined), 20_000);
    expect(b.logger.has("model configured: 127.0.0.1:")).toBe(true);
    // A ignores its own notification: one reload, the admin's
    expect(a.logger.lines.filter((line) => line.includes("storage: reloaded config")).length).toBe(0);
  });

  it("still reaches B after PostgreSQL restarts", async () => {
    await cluster.halt();
    await cluster.resume();
    // B listens again and re-reads everything (notifications of the outage are lost)
    await waitFor(
      () =>
        b.logger.has("storage: reloaded config (after the database connection came back)") ? true : undefined,
      30_000,
    );
    writeFileSync(join(b.folder, "config", "system", "model.json"), "{}");
    writeFileSync(join(a.folder, "config", "system", "model.json"), "{}");
    await admin.say("/system reload", (m) => /Reloaded/.test(m.text), 30_000);
    await waitFor(() => (reloadsOnB() === 2 ? true : undefined), 20_000);
    expect(
      b.logger.lines.filter((line) => line.includes("model not configured")).length,
    ).toBeGreaterThanOrEqual(2);
    // knowledge written after the restart is shared as well
    await admin.say("/system knowledge add Conduit | A conduit needs prismarine around it.", (m) =>
      /added/.test(m.text),
    );
    const answer = await alex.say("/system question conduit", (m) => m.text.includes("prismarine"));
    expect(answer.text).toContain("A conduit needs prismarine around it.");
  });
});
