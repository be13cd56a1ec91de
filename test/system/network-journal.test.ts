import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";
import {
  held,
  joinPlayer,
  type Player,
  quitAndWait,
  type ShippedServer,
  startShipped,
  tempFolder,
  waitFor,
} from "./system-support.js";

/** 35 different items an admin gives to fill every slot but the one the welcome kit takes. */
const FILLERS = [
  ...["stone", "granite", "diorite", "andesite", "dirt", "cobblestone", "oak_planks", "spruce_planks"],
  ...["birch_planks", "jungle_planks", "acacia_planks", "sand", "red_sand", "gravel", "coal", "charcoal"],
  ...["iron_ingot", "gold_ingot", "diamond", "emerald", "lapis_lazuli", "quartz", "stick", "bowl", "string"],
  ...["feather", "gunpowder", "wheat_seeds", "wheat", "flint", "apple", "arrow", "bone", "leather", "paper"],
];
const KIT = 5;

/** Polls an async check (a database row) until it gives a value. */
const until = async <T>(check: () => Promise<T | undefined>, timeoutMillis = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMillis;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/**
 * Two shipped servers (startSystem) of one network on one PostgreSQL database, with the journal, presence and
 * deliveries of the database: a check-in reward recorded on A while the player's inventory there is full is
 * given once, on B, where they went; an event task whose run another server holds is left to it, and resumed
 * here once that server's claim expired, once in the network.
 */
describe("a network's journal and deliveries (two shipped servers, real bots)", () => {
  let cluster: PostgresCluster;
  let database: pg.Pool;
  let a: ShippedServer;
  let b: ShippedServer;
  const players: Player[] = [];

  const storage = (server: string) =>
    JSON.stringify({ backend: "postgres", url: cluster.url("network"), poolSize: 4, server });
  const files = (server: string) => ({
    "config/system/storage.json": storage(server),
    // the welcome kit on a player's first join: an event task of the shared journal
    "config/system/advancements.json": JSON.stringify({
      rules: [
        {
          id: "welcome",
          trigger: { event: "system:first_join" },
          action: {
            workflow: "system:welcome",
            input: { items: [{ item: "minecraft:cookie", count: KIT }] },
          },
          repeat: "once",
        },
      ],
    }),
  });
  const join = async (server: ShippedServer, name: string): Promise<Player> => {
    const player = await joinPlayer(server.port, name);
    players.push(player);
    return player;
  };
  const row = async <T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<T | undefined> =>
    (await database.query<T>(text, values)).rows[0];

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    await cluster.createDatabase("network");
    a = await startShipped({ files: files("a"), ops: ["Admin"] });
    b = await startShipped({ files: files("b") });
    database = new pg.Pool({ connectionString: cluster.url("network"), max: 2 });
  }, 180_000);

  afterAll(async () => {
    for (const player of players) player.quit();
    await a?.close();
    await b?.close();
    await database?.end();
    await cluster?.stop();
  });

  it("applies every migration at start, on the one pool of each server", async () => {
    const { rows } = await database.query<{ name: string }>(
      "SELECT name FROM system_schema_migrations ORDER BY name",
    );
    const names = rows.map((entry) => entry.name);
    expect(names).toEqual(
      expect.arrayContaining(["000-points", "100-knowledge", "200-journal", "203-outbox"]),
    );
    // each server holds its liveness lease under its storage.json name, as the holder of its data folder
    const leases = await database.query<{ key: string; owner: string }>(
      "SELECT key, owner FROM system_lease WHERE key LIKE 'server:%' ORDER BY key",
    );
    expect(leases.rows.map((lease) => lease.key)).toEqual(["server:a", "server:b"]);
    expect(leases.rows[0]?.owner.endsWith(a.folder)).toBe(true);
  });

  it("refuses a second server under a name a running server holds; takes over its own after a crash", async () => {
    await expect(startShipped({ files: files("a") })).rejects.toThrow(
      /storage: the server name a is in use by .*; give each server its own/,
    );
    // a server of the network that stopped without ending its lease (killed): its next start takes it over
    const folder = tempFolder("system-network-c-");
    const c = await startShipped({ folder, files: files("c") });
    await c.close();
    await database.query(
      "UPDATE system_lease SET expires_at = now() + interval '1 hour' WHERE key = 'server:c'",
    );
    const again = await startShipped({ folder, files: files("c") });
    const lease = await row<{ epoch: string }>("SELECT epoch FROM system_lease WHERE key = 'server:c'", []);
    await again.close();
    expect(lease?.epoch).toBe("2");
  });

  it("gives a reward recorded on A, where the inventory is full, once: on B where the player went", async () => {
    const admin = await join(a, "Admin");
    const onA = await join(a, "Steve");
    // the welcome kit ran on A under A's claim of its run, once in the network
    await waitFor(() => (held(onA, "cookie") === KIT ? true : undefined));
    for (const item of FILLERS) admin.bot.chat(`/give Steve ${item}`);
    await waitFor(() => (onA.bot.inventory.items().length === 36 ? true : undefined));

    const checkIn = await onA.say("/system checkin", (m) => /Checked in/.test(m.text));
    expect(checkIn.text).toContain("Checked in!");
    const key = `check_in:${offlineUuid("Steve")}:`;
    // A tried and found no room: the effect waits in the outbox, pending, for the server hosting Steve
    await until(async () => {
      const effect = await row<{ attempts: number; status: string }>(
        "SELECT attempts, status FROM system_outbox WHERE starts_with(idem_key, $1)",
        [key],
      );
      return effect !== undefined && effect.attempts > 0 && effect.status === "pending" ? true : undefined;
    });
    expect(held(onA, "bread")).toBe(0);
    await quitAndWait(a, onA, "Steve");

    const onB = await join(b, "Steve");
    const arrived = await onB.next((m) => /check-in reward has arrived/.test(m.text));
    expect(arrived.text).toBe("Your check-in reward has arrived: Bread × 3, Bottle o' Enchanting × 2");
    await waitFor(() => (held(onB, "bread") === 3 ? true : undefined));
    // marked done once the give resolved (saved): the bot may see the bread a moment before
    const effect = await until(async () => {
      const done = await row<{ status: string; server: string }>(
        "SELECT status, server FROM system_outbox WHERE starts_with(idem_key, $1)",
        [key],
      );
      return done?.status === "done" ? done : undefined;
    });
    expect(effect).toEqual({ status: "done", server: "b" });
    expect((await onB.say("/system balance", (m) => /^Your points/.test(m.text))).text).toMatch(
      /^Your points: 10\n/,
    );
    // the welcome kit is the network's, given once: not again on B (its first join there came before the reply)
    expect(held(onB, "cookie")).toBe(0);
    await quitAndWait(b, onB, "Steve");

    // back on A, nothing is given again (A's join delivers what is pending for Steve before the reply)
    const back = await join(a, "Steve");
    await back.say("/system balance", (m) => /^Your points/.test(m.text));
    expect(held(back, "bread")).toBe(0);
  });

  it("never runs an event task whose run another server holds; resumes it once that claim expired", async () => {
    const uuid = offlineUuid("Alex");
    const run = `run:event:rule:welcome/${uuid}`;
    // server A holds the claim of Alex's welcome (as if it ran it right now)
    await database.query(
      `INSERT INTO system_lease (key, owner, epoch, expires_at) VALUES ($1, 'a', 7, now() + interval '1 hour')`,
      [run],
    );
    const onB = await join(b, "Alex");
    await waitFor(() =>
      b.logger.has(`event:rule:welcome/${uuid} is run by another server; left to it`) ? true : undefined,
    );
    const queued = await row<{ state: string }>("SELECT state FROM system_journal_event WHERE id = $1", [
      `rule:welcome/${uuid}`,
    ]);
    expect(queued?.state).toBe("QUEUED");
    expect(held(onB, "cookie")).toBe(0);

    // A stopped: its claim expires, and Alex's next join on B resumes the task there, once
    await database.query("UPDATE system_lease SET expires_at = now() WHERE key = $1", [run]);
    await quitAndWait(b, onB, "Alex");
    const again = await join(b, "Alex");
    await waitFor(() => (held(again, "cookie") === KIT ? true : undefined));
    await until(async () => {
      const task = await row<{ state: string }>("SELECT state FROM system_journal_event WHERE id = $1", [
        `rule:welcome/${uuid}`,
      ]);
      return task?.state === "SUCCEEDED" ? true : undefined;
    });
    const lease = await row<{ owner: string; epoch: string }>(
      "SELECT owner, epoch FROM system_lease WHERE key = $1",
      [run],
    );
    expect(lease).toEqual({ owner: "b", epoch: "8" });
  });
});
