import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresAgentJournal } from "../../src/data/network/postgres-agent-journal.js";
import { fencedQuery, LeaseLostError, PostgresLeases } from "../../src/data/network/postgres-leases.js";
import {
  type ApplyOutcome,
  enqueueEffect,
  heldReason,
  type OutboxEffect,
  PostgresOutbox,
} from "../../src/data/network/postgres-outbox.js";
import { PostgresPresence } from "../../src/data/network/postgres-presence.js";
import { PostgresRunClaims } from "../../src/data/network/postgres-run-claims.js";
import { coordinationDatabase } from "../support/coordination-database.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";

let cluster: PostgresCluster;
const pools: pg.Pool[] = [];
beforeAll(async () => {
  cluster = await startPostgresCluster();
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await cluster.stop();
});

const database = async (name: string): Promise<pg.Pool> => {
  const pool = new pg.Pool({ connectionString: await coordinationDatabase(cluster, name), max: 4 });
  pools.push(pool);
  return pool;
};

/** Polls until `attempt` returns a value (database time decides when a lease expires; no fixed sleeps). */
const eventually = async <T>(attempt: () => Promise<T | undefined>): Promise<T> => {
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe("leases with fencing epochs", () => {
  it("refuses a held lease, takes over an expired one with the next epoch, and never reuses an epoch", async () => {
    const pool = await database("leases_takeover");
    const one = new PostgresLeases(pool, "server-a");
    const two = new PostgresLeases(pool, "server-b");
    const first = await one.acquire("run:1", 200);
    expect(first).toMatchObject({ owner: "server-a", epoch: 1 });
    expect(await two.acquire("run:1", 60_000)).toBeUndefined();
    const taken = await eventually(() => two.acquire("run:1", 60_000));
    expect(taken).toMatchObject({ owner: "server-b", epoch: 2 });
    expect(await one.renew(first as never, 60_000)).toBeUndefined();
    expect(await one.release(first as never)).toBe(false);
    expect(await two.release(taken)).toBe(true);
    expect(await one.acquire("run:1", 60_000)).toMatchObject({ owner: "server-a", epoch: 3 });
  });

  it("refuses every write of a paused holder whose lease was taken over, in the same statement", async () => {
    const pool = await database("leases_fence");
    await pool.query("CREATE TABLE reward (run text PRIMARY KEY, given_by text, amount int)");
    await pool.query("INSERT INTO reward VALUES ('run:7', NULL, 0)");
    const paused = new PostgresLeases(pool, "server-a");
    const other = new PostgresLeases(pool, "server-b");
    const lease = await paused.acquire("run:7", 150);
    if (lease === undefined) throw new Error("no lease");
    const journal = await PostgresAgentJournal.open({ pool });
    const fenced = journal.fenced(lease);
    await fenced.appendStep("run:7/give", "test:give");
    // the holder stalls (a long GC pause, a frozen VM); its lease expires and another server takes the work
    const taken = await eventually(() => other.acquire("run:7", 60_000));
    const write = "UPDATE reward SET given_by = $1, amount = amount + 1 WHERE run = 'run:7' AND :fence";
    await expect(fencedQuery(pool, lease, write, ["server-a"])).rejects.toThrow(LeaseLostError);
    await expect(fenced.completeStep("run:7/give", { given: 1 })).rejects.toThrow(LeaseLostError);
    expect(await fencedQuery(pool, taken, write, ["server-b"])).toMatchObject({ rowCount: 1 });
    const { rows } = await pool.query("SELECT given_by, amount FROM reward");
    expect(rows).toEqual([{ given_by: "server-b", amount: 1 }]);
    const fresh = await PostgresAgentJournal.open({ pool });
    expect(fresh.step("run:7/give")).toMatchObject({ state: "RUNNING" });
    expect(journal.step("run:7/give")).toMatchObject({ state: "RUNNING" });
    await journal.close();
  });
});

describe("presence with join epochs", () => {
  it("keeps the new server when its join comes before the old server's quit", async () => {
    const pool = await database("presence_switch");
    const lobby = new PostgresPresence(pool, "lobby");
    const survival = new PostgresPresence(pool, "survival");
    const left = await lobby.join("steve");
    const arrived = await survival.join("steve");
    expect(arrived.epoch).toBeGreaterThan(left.epoch);
    expect(await lobby.quit(left)).toBe(false);
    expect(await survival.host("steve")).toMatchObject({ server: "survival", epoch: arrived.epoch });
    expect(await survival.quit(arrived)).toBe(true);
    expect(await lobby.host("steve")).toBeUndefined();
  });

  it("ends with the latest join when many joins race", async () => {
    const pool = await database("presence_race");
    const servers = ["a", "b", "c", "d"].map((name) => new PostgresPresence(pool, name));
    const joins = await Promise.all(
      Array.from({ length: 40 }, (_, index) => (servers[index % 4] as PostgresPresence).join("alex")),
    );
    const latest = joins.reduce((best, join) => (join.epoch > best.epoch ? join : best));
    expect(latest.current).toBe(true);
    expect(new Set(joins.map((join) => join.epoch)).size).toBe(40);
    expect(await servers[0]?.host("alex")).toMatchObject({ server: latest.server, epoch: latest.epoch });
  });
});

describe("outbox of in-game effects", () => {
  const outbox = (pool: pg.Pool, server: string, applied: OutboxEffect[], outcome?: () => ApplyOutcome) =>
    new PostgresOutbox({
      pool,
      server,
      apply: async (effect) => {
        const result = outcome?.() ?? "applied";
        if (result === "applied") applied.push(effect);
        return result;
      },
    });

  it("exists exactly when the ledger change that caused it commits, once per idempotency key", async () => {
    const pool = await database("outbox_tx");
    await pool.query("CREATE TABLE ledger (idem text PRIMARY KEY, delta int)");
    const award = async (idem: string, fail: boolean) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query("INSERT INTO ledger VALUES ($1, 5) ON CONFLICT DO NOTHING", [idem]);
        const effect = await enqueueEffect(client, {
          idemKey: idem,
          playerId: "steve",
          payload: { give: 5 },
        });
        if (fail) throw new Error("the ledger write failed later in the transaction");
        await client.query("COMMIT");
        return effect;
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      } finally {
        client.release();
      }
    };
    await expect(award("order:1", true)).rejects.toThrow();
    expect((await pool.query("SELECT count(*)::int AS n FROM system_outbox")).rows[0].n).toBe(0);
    expect(await award("order:1", false)).toMatchObject({ created: true });
    expect(await award("order:1", false)).toMatchObject({ created: false });
    expect((await pool.query("SELECT count(*)::int AS n FROM system_outbox")).rows[0].n).toBe(1);
  });

  it("is claimed only by the server hosting the player, and an absent player's effect waits for the host", async () => {
    const pool = await database("outbox_host");
    const applied: OutboxEffect[] = [];
    await enqueueEffect(pool, { idemKey: "e1", playerId: "steve", payload: { give: 1 } });
    await enqueueEffect(pool, { idemKey: "e2", playerId: "steve", payload: { give: 2 } });
    await new PostgresPresence(pool, "lobby").join("steve");
    expect(await outbox(pool, "survival", applied).deliver()).toBe(0);
    // the presence row still says lobby, but the player already left its game: nothing changes
    expect(await outbox(pool, "lobby", applied, () => "absent").deliver()).toBe(0);
    const { rows } = await pool.query("SELECT status, server FROM system_outbox ORDER BY id");
    expect(rows).toEqual([
      { status: "pending", server: null },
      { status: "pending", server: null },
    ]);
    await new PostgresPresence(pool, "survival").join("steve");
    expect(await outbox(pool, "lobby", applied).deliver()).toBe(0);
    expect(await outbox(pool, "survival", applied).deliver()).toBe(2);
    expect(applied.map((effect) => effect.idemKey)).toEqual(["e1", "e2"]);
    expect(await outbox(pool, "survival", applied).deliver()).toBe(0);
  });

  it("never applies blindly again an effect a crash left applying: reconciled, or held for an admin", async () => {
    const pool = await database("outbox_crash");
    await new PostgresPresence(pool, "survival").join("steve");
    for (const key of ["a", "b", "c"])
      await enqueueEffect(pool, { idemKey: key, playerId: "steve", payload: {} });
    let started = 0;
    const crashed = new PostgresOutbox({
      pool,
      server: "survival",
      // the process dies inside the effect: its promise never settles
      apply: () => {
        started++;
        return new Promise<ApplyOutcome>(() => undefined);
      },
    });
    void crashed.deliver();
    await eventually(async () => (started === 1 ? true : undefined));
    const statuses = async () =>
      (await pool.query("SELECT idem_key, status FROM system_outbox ORDER BY id")).rows.map(
        (row) => `${row.idem_key}:${row.status}`,
      );
    expect(await statuses()).toEqual(["a:applying", "b:applying", "c:applying"]);
    const verdicts = new Map([
      ["a", "applied"],
      ["b", "not-applied"],
      ["c", "unknown"],
    ] as const);
    const applied: string[] = [];
    const restarted = new PostgresOutbox({
      pool,
      server: "survival",
      apply: async (effect) => {
        applied.push(effect.idemKey);
        return "applied";
      },
      reconcile: async (effect) => verdicts.get(effect.idemKey as "a") ?? "unknown",
    });
    expect(await restarted.recover()).toEqual({ done: 1, pending: 1, unconfirmed: 1 });
    expect(await restarted.deliver()).toBe(1);
    expect(applied).toEqual(["b"]);
    const held = await restarted.unconfirmed();
    expect(held.map((effect) => effect.idemKey)).toEqual(["c"]);
    expect(held.map(heldReason)).toEqual(["outcome_unknown"]);
    expect(await restarted.resolve(held[0]?.id ?? 0, "redeliver")).toBe(true);
    // settled once: a second decision (another admin, another server) finds it settled
    expect(await restarted.resolve(held[0]?.id ?? 0, "done")).toBe(false);
    expect(await restarted.deliver()).toBe(1);
    expect(applied).toEqual(["b", "c"]);
    expect(await statuses()).toEqual(["a:done", "b:done", "c:done"]);
  });
});

describe("outbox claims of a server that stopped", () => {
  it("holds for an admin the effects a server left applying once its liveness lease expired", async () => {
    const pool = await database("outbox_abandoned");
    await new PostgresPresence(pool, "lobby").join("steve");
    await enqueueEffect(pool, { idemKey: "gift", playerId: "steve", payload: {} });
    const lobbyAlive = await new PostgresLeases(pool, "lobby").acquire("server:lobby", 60_000);
    let started = false;
    void new PostgresOutbox({
      pool,
      server: "lobby",
      apply: () => {
        started = true;
        return new Promise<ApplyOutcome>(() => undefined);
      },
    }).deliver();
    await eventually(async () => (started ? true : undefined));
    const survival = new PostgresOutbox({ pool, server: "survival", apply: async () => "applied" });
    // the lobby still runs (its lease holds): its claim is its own business
    expect(await survival.recoverAbandoned()).toBe(0);
    await pool.query("UPDATE system_lease SET expires_at = now() WHERE key = $1", [lobbyAlive?.key]);
    expect(await survival.recoverAbandoned()).toBe(1);
    const held = await survival.unconfirmed();
    expect(held).toMatchObject([
      { idemKey: "gift", server: "lobby", note: "server lobby stopped while applying: an admin must check" },
    ]);
    expect(held.map(heldReason)).toEqual(["server_stopped"]);
  });
});

/**
 * Leases of a server that can stall: while stalled, its renewals wait (a process that stopped running), and
 * `quiet` settles once none is on its way to the database.
 */
class StallingLeases extends PostgresLeases {
  #stall: Promise<void> | undefined;
  #resume: () => void = () => {};
  #inFlight = 0;

  stall(): void {
    this.#stall = new Promise((resolve) => {
      this.#resume = resolve;
    });
  }

  resume(): void {
    this.#stall = undefined;
    this.#resume();
  }

  async quiet(): Promise<void> {
    await eventually(async () => (this.#inFlight === 0 ? true : undefined));
  }

  override async renew(...args: Parameters<PostgresLeases["renew"]>): ReturnType<PostgresLeases["renew"]> {
    await this.#stall;
    this.#inFlight++;
    try {
      return await super.renew(...args);
    } finally {
      this.#inFlight--;
    }
  }
}

describe("run claims", () => {
  it("lets one server run a run, reloads its steps on claim, and stops a holder whose claim was taken", async () => {
    const pool = await database("run_claims");
    const open = async (server: string) => {
      const journal = await PostgresAgentJournal.open({ pool });
      const leases = new StallingLeases(pool, server);
      return {
        journal,
        leases,
        claims: new PostgresRunClaims({ leases, journal, ttlMillis: 60_000, renewMillis: 20 }),
      };
    };
    const lobby = await open("lobby");
    const survival = await open("survival");
    const held = await lobby.claims.claim("event:e1");
    if (held === undefined) throw new Error("no claim");
    expect(await survival.claims.claim("event:e1")).toBeUndefined();
    await held.journal.appendStep("event:e1/give", "test:give");
    await held.journal.completeStep("event:e1/give", { given: 1 });
    expect(survival.journal.step("event:e1/give")).toBeUndefined();
    // the lobby stalls past its lease (no renewal of its own runs meanwhile, so none rescues the lease): the
    // survival server takes the run and sees the lobby's receipts
    lobby.leases.stall();
    await lobby.leases.quiet();
    await pool.query("UPDATE system_lease SET expires_at = now() WHERE key = 'run:event:e1'");
    const taken = await survival.claims.claim("event:e1");
    lobby.leases.resume();
    expect(taken?.lease.epoch).toBe(2);
    expect(survival.journal.step("event:e1/give")).toMatchObject({ state: "DONE", result: { given: 1 } });
    await eventually(async () => (held.signal.aborted ? true : undefined));
    await expect(held.journal.beginStep("event:e1/next", "test:give")).rejects.toThrow(LeaseLostError);
    await held.release();
    await taken?.release();
    expect(await lobby.claims.claim("event:e1")).toMatchObject({ lease: { epoch: 3 } });
  });
});
