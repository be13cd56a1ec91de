import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueEffect } from "../../src/data/network/postgres-outbox.js";
import { coordinationDatabase } from "../support/coordination-database.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";

const WORKER = fileURLToPath(new URL("./workers/network-server.ts", import.meta.url));

/** A stand-in server process (tsx) with its output lines, for the two-process races. */
class Server {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  #waiters: (() => void)[] = [];
  readonly exited: Promise<number | null>;
  constructor(args: readonly string[]) {
    this.child = spawn(process.execPath, ["--import", "tsx", WORKER, ...args], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    createInterface({ input: this.child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      this.lines.push(line);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.exited = new Promise((resolve) => this.child.once("exit", resolve));
  }
  send(line: string): void {
    this.child.stdin?.write(`${line}\n`);
  }
  /** Waits for the next line matching `pattern` after the `from`-th line; returns its index. */
  async line(pattern: RegExp, from = 0): Promise<number> {
    for (;;) {
      const index = this.lines.findIndex((line, at) => at >= from && pattern.test(line));
      if (index >= 0) return index;
      if (this.child.exitCode !== null) throw new Error(`server exited: ${this.lines.join(" | ")}`);
      await Promise.race([new Promise<void>((resolve) => this.#waiters.push(resolve)), this.exited]);
    }
  }
}

let cluster: PostgresCluster;
const pools: pg.Pool[] = [];
const children: Server[] = [];
beforeAll(async () => {
  cluster = await startPostgresCluster();
});
afterAll(async () => {
  for (const server of children) if (server.child.exitCode === null) server.child.kill("SIGKILL");
  await Promise.all(pools.map((pool) => pool.end()));
  await cluster.stop();
});

const database = async (name: string, setup: readonly string[]): Promise<{ url: string; pool: pg.Pool }> => {
  const url = await coordinationDatabase(cluster, name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pools.push(pool);
  for (const statement of setup) await pool.query(statement);
  return { url, pool };
};

const server = (...args: string[]): Server => {
  const started = new Server(args);
  children.push(started);
  return started;
};

describe("two server processes on one database", () => {
  it("never interleaves the write sections of one player (advisory transaction lock)", async () => {
    const { url, pool } = await database("race_exclusive", [
      "CREATE TABLE counter (value int NOT NULL)",
      "INSERT INTO counter VALUES (0)",
      "CREATE SEQUENCE section_seq",
      "CREATE TABLE section (server text, begin_at bigint, end_at bigint)",
    ]);
    const servers = [server("exclusive", url, "lobby", "60"), server("exclusive", url, "survival", "60")];
    await Promise.all(servers.map((each) => each.line(/^done$/)));
    expect((await pool.query("SELECT value FROM counter")).rows[0].value).toBe(120);
    const { rows } = await pool.query(
      "SELECT server, begin_at::int AS b, end_at::int AS e FROM section ORDER BY begin_at",
    );
    expect(new Set(rows.map((row) => row.server))).toEqual(new Set(["lobby", "survival"]));
    for (let index = 1; index < rows.length; index++)
      expect(rows[index].b).toBeGreaterThan(rows[index - 1].e);
  });

  it("applies each effect once, on the server hosting the player, while the player switches every 200 ms", async () => {
    const { url, pool } = await database("race_switch", [
      "CREATE TABLE ledger (idem text PRIMARY KEY, player text, delta int)",
      "CREATE TABLE applied (idem_key text, server text, presence_epoch bigint)",
    ]);
    const servers = { lobby: server("outbox", url, "lobby"), survival: server("outbox", url, "survival") };
    const joins = new Map<number, string>();
    const join = async (name: "lobby" | "survival") => {
      const from = servers[name].lines.length;
      servers[name].send("join steve");
      const at = await servers[name].line(/^joined /, from);
      joins.set(Number(servers[name].lines[at]?.split(" ")[1]), name);
    };
    const leave = async (name: "lobby" | "survival") => {
      const from = servers[name].lines.length;
      servers[name].send("leave steve");
      await servers[name].line(/^left$/, from);
    };
    await join("lobby");
    let written = 0;
    let switching = true;
    const writer = (async () => {
      while (switching) {
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          const idem = `award:${++written}`;
          await client.query("INSERT INTO ledger VALUES ($1, 'steve', 1)", [idem]);
          await enqueueEffect(client, { idemKey: idem, playerId: "steve", payload: { give: 1 } });
          await client.query("COMMIT");
        } finally {
          client.release();
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    let host: "lobby" | "survival" = "lobby";
    for (let hop = 0; hop < 20; hop++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const next: "lobby" | "survival" = host === "lobby" ? "survival" : "lobby";
      // the proxy moved the player: the new server's join and the old one's quit race each other
      await Promise.all([join(next), leave(host)]);
      host = next;
    }
    switching = false;
    await writer;
    const open = async () =>
      (await pool.query("SELECT count(*)::int AS n FROM system_outbox WHERE status <> 'done'")).rows[0].n;
    while ((await open()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const each of Object.values(servers)) each.send("stop");
    await Promise.all(Object.values(servers).map((each) => each.line(/^stopped$/)));
    const { rows } = await pool.query("SELECT idem_key, server, presence_epoch::int AS epoch FROM applied");
    expect(rows).toHaveLength(written);
    expect(new Set(rows.map((row) => row.idem_key)).size).toBe(written);
    for (const row of rows) expect(joins.get(row.epoch)).toBe(row.server);
    expect(new Set(rows.map((row) => row.server))).toEqual(new Set(["lobby", "survival"]));
  });

  it("completes a run once after SIGKILL of the server holding its lease, once the lease expired", async () => {
    const { url, pool } = await database("race_sigkill", [
      "CREATE TABLE effect (key text PRIMARY KEY, server text, epoch int)",
      "CREATE TABLE run_done (run text, server text, epoch int)",
    ]);
    const first = server("lease-run", url, "lobby", "r1", "5", "3");
    await first.line(/^hanging$/);
    const second = server("lease-run", url, "survival", "r1", "5", "0");
    first.child.kill("SIGKILL");
    await first.exited;
    await second.line(/^done$/);
    expect(second.lines).toEqual(["leased 2", "replayed 1", "replayed 2", "ran 3", "ran 4", "ran 5", "done"]);
    expect((await pool.query("SELECT run, server, epoch FROM run_done")).rows).toEqual([
      { run: "r1", server: "survival", epoch: 2 },
    ]);
    const { rows } = await pool.query("SELECT key, server, epoch FROM effect ORDER BY key");
    expect(rows.map((row) => `${row.key}:${row.server}:${row.epoch}`)).toEqual([
      "r1/1:lobby:1",
      "r1/2:lobby:1",
      "r1/3:lobby:1",
      "r1/4:survival:2",
      "r1/5:survival:2",
    ]);
    const steps = await pool.query("SELECT key, state FROM system_journal_step ORDER BY key");
    expect(steps.rows.every((row) => row.state === "DONE")).toBe(true);
  });
});
