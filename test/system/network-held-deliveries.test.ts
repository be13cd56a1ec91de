import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveryRef } from "../../src/module/builtin/deliveries/delivery-lines.js";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";
import {
  held,
  joinPlayer,
  type Player,
  quitAndWait,
  type ShippedServer,
  startShipped,
  waitFor,
} from "./system-support.js";

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

const LISTED = (text: string): boolean => /Unconfirmed deliveries|No unconfirmed/.test(text);

/**
 * Two shipped servers (startSystem) of one network on one PostgreSQL database, and a third server, `lobby`, that
 * stopped while it was giving two of Steve's rewards from the shared outbox (its rows left `applying`, its liveness
 * lease expired). An admin on B sees both in `/system deliveries` with the server that held them and settles
 * them: one given again — once, by A where Steve plays — and one marked done — never given. A player who is no
 * admin has no such command.
 */
describe("a network's held deliveries: /system deliveries on any server (shipped servers, real bots)", () => {
  let cluster: PostgresCluster;
  let database: pg.Pool;
  let a: ShippedServer;
  let b: ShippedServer;
  const players: Player[] = [];
  const steve = offlineUuid("Steve");
  const breadKey = `check_in:${steve}:2026-12-01`;
  const cookieKey = `gift:${steve}:cookies`;

  const files = (server: string) => ({
    "config/system/storage.json": JSON.stringify({
      backend: "postgres",
      url: cluster.url("network"),
      poolSize: 4,
      server,
    }),
  });
  const join = async (server: ShippedServer, name: string): Promise<Player> => {
    const player = await joinPlayer(server.port, name);
    players.push(player);
    return player;
  };
  const effect = async (key: string) =>
    (
      await database.query<{ status: string; server: string | null; attempts: number }>(
        "SELECT status, server, attempts FROM system_outbox WHERE idem_key = $1",
        [key],
      )
    ).rows[0];

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    await cluster.createDatabase("network");
    a = await startShipped({ files: files("a") });
    b = await startShipped({ files: files("b"), ops: ["Admin"] });
    database = new pg.Pool({ connectionString: cluster.url("network"), max: 2 });
  }, 180_000);

  afterAll(async () => {
    for (const player of players) player.quit();
    await a?.close();
    await b?.close();
    await database?.end();
    await cluster?.stop();
  });

  it("lists on B what a stopped server held, gives one again once on A, and never gives the one marked done", async () => {
    // Steve has played on B before (B knows his name); he plays on A now
    await quitAndWait(b, await join(b, "Steve"), "Steve");
    const onA = await join(a, "Steve");

    // the lobby claimed two of Steve's rewards and stopped before it could finish them; its lease ran out
    await database.query(
      "INSERT INTO system_lease (key, owner, epoch, expires_at) VALUES ('server:lobby', 'lobby', 1, now())",
    );
    for (const [key, payload] of [
      [
        breadKey,
        { kind: "give_items", items: [{ item: "minecraft:bread", count: 3 }], reason: "check_in:2026-12-01" },
      ],
      [cookieKey, { kind: "give_items", items: [{ item: "minecraft:cookie", count: 2 }], reason: "gift" }],
    ] as const)
      await database.query(
        `INSERT INTO system_outbox (idem_key, player_id, payload, status, server, attempts)
         VALUES ($1, $2, $3, 'applying', 'lobby', 1)`,
        [key, steve, JSON.stringify(payload)],
      );

    // a player who is no admin has no such command, on either server
    expect((await onA.say("/system deliveries", (m) => /Unknown command|deliveries/.test(m.text))).text).toBe(
      "⚠ Unknown command: deliveries",
    );

    const admin = await join(b, "Admin");
    const listed = (await admin.say("/system deliveries", (m) => LISTED(m.text))).text.split("\n");
    expect(listed[0]).toMatch(/^Unconfirmed deliveries \(2\)\./);
    const line = new RegExp(
      `^\\[${deliveryRef(breadKey)}\\] Steve · Bread × 3 · \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} · server lobby: it stopped while giving$`,
    );
    expect(listed[1]).toMatch(line);
    expect(listed[2]).toContain(`[${deliveryRef(cookieKey)}] Steve · Cookie × 2 · `);

    const done = await admin.say(`/system deliveries done ${deliveryRef(cookieKey)}`, (m) =>
      /marked done|Nothing/.test(m.text),
    );
    expect(done.text).toBe(`Delivery [${deliveryRef(cookieKey)}] of Steve marked done; nothing was given.`);
    const again = await admin.say(`/system deliveries redeliver ${deliveryRef(breadKey)}`, (m) =>
      /given again|Nothing/.test(m.text),
    );
    expect(again.text).toBe(
      `Delivery [${deliveryRef(breadKey)}] of Steve will be given again, once, by the server they play on.`,
    );

    // A, which hosts Steve, gives the bread: once, and tells him
    const arrived = await onA.next((m) => /check-in reward has arrived/.test(m.text));
    expect(arrived.text).toBe("Your check-in reward has arrived: Bread × 3");
    await until(async () => ((await effect(breadKey))?.status === "done" ? true : undefined));
    await waitFor(() => (held(onA, "bread") === 3 ? true : undefined));
    expect(await effect(breadKey)).toEqual({ status: "done", server: "a", attempts: 2 });
    // the one marked done was never claimed again
    expect(await effect(cookieKey)).toEqual({ status: "done", server: null, attempts: 1 });

    // settled once: a second decision finds nothing, and the list is empty on every server
    const twice = await admin.say(`/system deliveries redeliver ${deliveryRef(breadKey)}`, (m) =>
      /given again|Nothing/.test(m.text),
    );
    expect(twice.text).toBe(`⚠ Nothing was found for: ${deliveryRef(breadKey)}`);
    expect((await admin.say("/system deliveries", (m) => LISTED(m.text))).text).toBe(
      "No unconfirmed deliveries.",
    );
    await onA.say("/system balance", (m) => /^Your points/.test(m.text));
    expect(held(onA, "bread")).toBe(3);
    expect(held(onA, "cookie")).toBe(0);
  });
});
