import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GameClock } from "../../src/game/context-types.js";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";
import {
  type ChatMessage,
  held,
  joinPlayer,
  type Player,
  quitAndWait,
  type ShippedServer,
  speak,
  startShipped,
  waitFor,
} from "./system-support.js";

const DAY = 86_400_000;
/** How long one request may take during the outage before the test calls it a hang. */
const ANSWER_MILLIS = 20_000;

/** What one action of a round answered: its success, or the message it got instead (and who sent what). */
interface Outcome {
  readonly ok: boolean;
  readonly text: string;
  readonly line: string;
}

/** Polls an async check (database rows) until it gives a value. */
const until = async <T>(
  check: () => Promise<T | undefined>,
  explain: () => Promise<string>,
  timeoutMillis = 30_000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMillis;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in time: ${await explain()}`);
    await sleep(50);
  }
};

/** What a player is told while the database is down (en_us and zh_cn): try again, never a raw error. */
const OUTAGE = [
  "⚠ The server's storage cannot be reached right now. Please try again in a moment.",
  "⚠ 服务器的存储暂时无法连接，请稍后再试。",
];

const sleep = (millis: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, millis));

const PRESENCE = /joined the game|left the game/;

/**
 * Sends a line and takes the first message after it (a reply or a notice of an earlier change: a notice that
 * matches no success counts as a failed action, and the next round tries again).
 */
const ask = async (player: Player, line: string, success: RegExp): Promise<Outcome> => {
  const message: ChatMessage = await player.say(
    line,
    (m) => !PRESENCE.test(m.text) && !isNotice(m.text),
    ANSWER_MILLIS,
  );
  return { ok: success.test(message.text), text: message.text, line: `${player.bot.username}: ${line}` };
};

/** Notices that arrive by themselves (a delivery, a check-in reward), never the reply to a line. */
const isNotice = (text: string): boolean =>
  /^Order [0-9a-f]{8} (delivered|paid)|check-in reward has arrived|reloaded/.test(text);

/**
 * Two shipped servers of one network (startSystem, one database of a throw-away cluster) under continuous load
 * from real bots on both: check-ins (the server clock moves a day each round), admin grants across servers,
 * shop purchases and balance reads. PostgreSQL is killed (`pg_ctl -m immediate`) mid-round and requests go on
 * during the outage: each gets a translated message in time and nothing crashes. After the restart the network
 * converges: every balance is the sum of its ledger, no check-in or order is counted twice, every paid order and
 * every check-in reward is given once, and a reload on A reaches B again.
 */
describe("a network of two servers through a PostgreSQL restart under load", () => {
  let cluster: PostgresCluster;
  let database: pg.Pool;
  let a: ShippedServer;
  let b: ShippedServer;
  let offset = 0;
  const clock: GameClock = { now: () => Date.now() + offset, timeZone: "UTC" };
  const bots: Player[] = [];
  const players = { a: ["Ann", "Amy"], b: ["Bob", "Ben"] } as const;
  const everyone = [...players.a, ...players.b];
  const byName = new Map<string, Player>();
  const admins: { a?: Player; b?: Player } = {};
  /** Orders whose confirmation the player saw, and admin grants the admin saw succeed, per player. */
  const confirmed: { readonly name: string; readonly order: string }[] = [];
  const granted = new Map<string, number>();
  /** When the last round's answers were all in (before it waits for deliveries to move the day on). */
  let answeredAt = 0;
  /** A player whose client speaks Chinese: she reads her balance each round. */
  let zoe: Player;

  const files = (server: string) => ({
    "config/system/storage.json": JSON.stringify({
      backend: "postgres",
      url: cluster.url("network"),
      poolSize: 4,
      server,
      // a run this server could not end is tried again within a second; a stopped server's runs wait 3 s
      leaseMillis: 3_000,
    }),
  });

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    await cluster.createDatabase("network");
    a = await startShipped({ files: files("a"), clock, ops: ["AdminA"] });
    b = await startShipped({ files: files("b"), clock, ops: ["AdminB"] });
    database = new pg.Pool({ connectionString: cluster.url("network"), max: 2 });
    database.on("error", () => {});
    for (const [server, other, names] of [
      [a, b, players.a],
      [b, a, players.b],
    ] as const)
      for (const name of names) {
        // a first visit to the other server: its admin can give them points by name from then on
        await quitAndWait(other, await joinPlayer(other.port, name), name);
        const player = await joinPlayer(server.port, name);
        bots.push(player);
        byName.set(name, player);
      }
    admins.a = await joinPlayer(a.port, "AdminA");
    admins.b = await joinPlayer(b.port, "AdminB");
    zoe = await joinPlayer(b.port, "Zoe");
    await speak(b, zoe, "zh_cn");
    bots.push(admins.a, admins.b, zoe);
  }, 180_000);

  afterAll(async () => {
    for (const bot of bots) bot.quit();
    await a?.close();
    await b?.close();
    await database?.end();
    await cluster?.stop();
  });

  const explainRows = (text: string) => async (): Promise<string> =>
    `${JSON.stringify((await database.query(text)).rows)}\nA:\n${a.logger.lines.join("\n")}\nB:\n${b.logger.lines.join("\n")}`;

  /** One player's round: check in, buy a torch pack (when a quote can be confirmed), read the balance. */
  const playerRound = async (player: Player): Promise<Outcome[]> => {
    const outcomes: Outcome[] = [];
    outcomes.push(await ask(player, "/system checkin", /^Checked in!|^You have already checked in today/));
    const quote = await ask(player, "/system buy torch 1", /^Quote:/);
    outcomes.push(quote);
    if (quote.ok) {
      const message = player.chat.findLast((m) => m.text === quote.text);
      const confirm = message?.clicks[0];
      // a balance below the price gives a quote without Confirm: nothing to buy this round
      if (confirm !== undefined) {
        const placed = await ask(player, confirm, /^Order [0-9a-f]{8} confirmed/);
        outcomes.push(placed);
        const order = /^Order ([0-9a-f]{8}) confirmed/.exec(placed.text)?.[1];
        if (order !== undefined) confirmed.push({ name: player.bot.username, order });
      }
    }
    outcomes.push(await ask(player, "/system balance", /^Your points: \d+/));
    return outcomes;
  };

  /** An admin's round: 5 points to a player here and to one on the other server. */
  const adminRound = async (admin: Player, names: readonly string[]): Promise<Outcome[]> => {
    const outcomes: Outcome[] = [];
    for (const name of names) {
      const given = await ask(admin, `/system points give ${name} 5`, /^Gave 5 points to /);
      outcomes.push(given);
      if (given.ok) granted.set(name, (granted.get(name) ?? 0) + 1);
    }
    return outcomes;
  };

  const round = async (index: number): Promise<Outcome[]> => {
    const results = await Promise.all([
      ...everyone.map((name) => playerRound(byName.get(name) as Player)),
      ask(zoe, "/system 余额", /^你的积分：\d+/).then((outcome) => [outcome]),
      adminRound(admins.a as Player, [players.a[index % 2] as string, players.b[index % 2] as string]),
      adminRound(admins.b as Player, [
        players.b[(index + 1) % 2] as string,
        players.a[(index + 1) % 2] as string,
      ]),
    ]);
    answeredAt = Date.now();
    // the next round is a new day (every player may check in again), once no delivery runs: a deadline set
    // before the jump would pass at once
    const idle = Promise.all([a.system.assistant.events.whenIdle(), b.system.assistant.events.whenIdle()]);
    if (await Promise.race([idle.then(() => true), sleep(5_000).then(() => false)])) offset += DAY;
    return results.flat();
  };

  it("answers every request during the outage and converges after the restart", async () => {
    for (let index = 0; index < 3; index++) {
      const outcomes = await round(index);
      expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
    }

    // the database dies mid-round: requests in flight and those after get a message, never a hang or a crash
    const inFlight = round(3);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await cluster.halt("immediate");
    const during = [...(await inFlight), ...(await round(4)), ...(await round(5))];
    const failed = during.filter((outcome) => !outcome.ok);
    expect(failed.length).toBeGreaterThan(0);
    // an order confirmed just before the outage may tell its outcome later; every other answer is the outage's
    expect(
      failed.filter((outcome) => !OUTAGE.includes(outcome.text)),
      JSON.stringify(failed),
    ).toEqual([]);
    expect(failed.map((outcome) => outcome.text)).toContain(OUTAGE[1]);

    await cluster.resume();
    const resumed = Date.now();
    let rounds = 0;
    for (;;) {
      rounds++;
      const outcomes = await round(6 + rounds);
      if (outcomes.every((outcome) => outcome.ok)) break;
      if (Date.now() - resumed > 60_000)
        throw new Error(`no full round within 60 s: ${JSON.stringify(outcomes.filter((o) => !o.ok))}`);
    }
    console.log(
      `network restart: first fully successful round on both servers ${answeredAt - resumed} ms after PostgreSQL resumed (${rounds} rounds)`,
    );

    // every durable task (the orders' deliveries) ended, none held for an admin; every check-in reward given
    await until(async () => {
      const { rows } = await database.query<{ open: number }>(
        "SELECT count(*)::int AS open FROM system_journal_event WHERE state <> 'SUCCEEDED'",
      );
      return rows[0]?.open === 0 ? true : undefined;
    }, explainRows(
      "SELECT id, state, task->'result' AS result FROM system_journal_event WHERE state <> 'SUCCEEDED'",
    ));
    await until(async () => {
      const { rows } = await database.query<{ open: number }>(
        "SELECT count(*)::int AS open FROM system_outbox WHERE status <> 'done'",
      );
      return rows[0]?.open === 0 ? true : undefined;
    }, explainRows("SELECT idem_key, status, server, note FROM system_outbox WHERE status <> 'done'"));
    console.log(
      `network restart: every task ended and every reward given ${Date.now() - resumed} ms after PostgreSQL resumed`,
    );
    for (const name of everyone) {
      const id = offlineUuid(name);
      const player = byName.get(name) as Player;
      const { rows } = await database.query<{
        balance: string;
        total: string;
        days: number;
        checkIns: number;
        effects: number;
        grants: number;
        orders: string[];
      }>(
        `SELECT (SELECT balance FROM system_points_balance WHERE player_id = $1) AS balance,
           (SELECT coalesce(sum(amount), 0) FROM system_points_entry WHERE player_id = $1) AS total,
           (SELECT count(*)::int FROM system_check_in WHERE player_id = $1) AS days,
           (SELECT count(*)::int FROM system_points_entry WHERE player_id = $1 AND reason = 'check_in') AS "checkIns",
           (SELECT count(*)::int FROM system_outbox WHERE player_id = $1) AS effects,
           (SELECT count(*)::int FROM system_points_entry WHERE player_id = $1 AND reason LIKE 'admin%') AS grants,
           (SELECT coalesce(array_agg(entry_id), '{}') FROM system_points_entry
             WHERE player_id = $1 AND entry_id LIKE 'order:%') AS orders`,
        [id],
      );
      const ledger = rows[0];
      if (ledger === undefined) throw new Error(`no ledger for ${name}`);
      // the balance is the sum of the awards and charges recorded, each once (their keys are unique)
      expect(ledger.balance).toBe(ledger.total);
      // one check-in entry and one reward per day checked in; the reward given once (3 bread a day)
      expect(ledger.checkIns).toBe(ledger.days);
      expect(ledger.effects).toBe(ledger.days);
      // no grant the admin was told of is missing (one cut by the outage after its commit may be there too)
      expect(ledger.grants).toBeGreaterThanOrEqual(granted.get(name) ?? 0);
      // every order the player saw confirmed is charged exactly once; every charge delivered once
      for (const order of confirmed.filter((entry) => entry.name === name))
        expect(ledger.orders.filter((entry) => entry.startsWith(`order:shop/${order.order}`)).length).toBe(1);
      await waitFor(() =>
        held(player, "torch") === 4 * ledger.orders.length && held(player, "bread") === 3 * ledger.days
          ? true
          : undefined,
      );
      const balance = await player.say("/system balance", (m) => /^Your points/.test(m.text));
      expect(balance.text).toMatch(new RegExp(`^Your points: ${ledger.balance}\\n`));
    }

    // notifications work again: an admin's reload on A reaches B
    const reloads = () =>
      b.logger.lines.filter((line) => line.includes("storage: reloaded config (/system reload")).length;
    await (admins.a as Player).say("/system reload", (m) => /Reloaded/.test(m.text));
    await waitFor(() => (reloads() === 1 ? true : undefined));
  }, 240_000);
});
