/**
 * One stand-in server of a network for the two-process race tests, run with tsx as a child process. It uses
 * the real PostgreSQL coordination code; its "game" is a set of online players kept in memory (a stand-in
 * for a Minecraft backend), and its effects are rows of test tables. Modes:
 * - `exclusive <url> <name> <count>`: `count` read-modify-write sections on one player's counter.
 * - `outbox <url> <server>`: follows `join <player>`/`leave <player>` lines on stdin and delivers effects.
 * - `lease-run <url> <server> <run> <steps> <hangAt>`: completes a run of steps under a lease; with hangAt > 0
 *   it stops forever inside that step's effect (the parent then kills it).
 */
import { createInterface } from "node:readline";
import pg from "pg";
import { z } from "zod";
import { JournalStepRunner } from "../../../src/agent/storage/journal-step-runner.js";
import { type AnyTool, Tool } from "../../../src/agent/tool/tool.js";
import { ToolType } from "../../../src/agent/tool/tool-type.js";
import { withPlayerExclusive } from "../../../src/data/network/player-exclusive.js";
import { PostgresAgentJournal } from "../../../src/data/network/postgres-agent-journal.js";
import { fencedQuery, PostgresLeases } from "../../../src/data/network/postgres-leases.js";
import { PostgresOutbox } from "../../../src/data/network/postgres-outbox.js";
import { PostgresPresence, type PresenceToken } from "../../../src/data/network/postgres-presence.js";
import { PostgresRunClaims } from "../../../src/data/network/postgres-run-claims.js";
import { codec } from "../../../src/util/codec.js";

const [mode = "", url = "", name = "", ...rest] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 4 });
const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

const exclusive = async (count: number): Promise<void> => {
  for (let index = 0; index < count; index++)
    await withPlayerExclusive(pool, "steve", async (client) => {
      const { rows } = await client.query("SELECT value, nextval('section_seq') AS begin FROM counter");
      await client.query("SELECT pg_sleep(0.002)");
      await client.query("UPDATE counter SET value = $1", [Number(rows[0].value) + 1]);
      await client.query(
        "INSERT INTO section (server, begin_at, end_at) VALUES ($1, $2, nextval('section_seq'))",
        [name, rows[0].begin],
      );
    });
  say("done");
};

const outbox = async (): Promise<void> => {
  const online = new Set<string>();
  const tokens = new Map<string, PresenceToken>();
  const presence = new PostgresPresence(pool, name);
  const delivery = new PostgresOutbox({
    pool,
    server: name,
    apply: async (effect) => {
      if (!online.has(effect.playerId)) return "absent";
      // the stand-in game's effect: not idempotent, so a second application would show as a second row
      await pool.query("INSERT INTO applied (idem_key, server, presence_epoch) VALUES ($1, $2, $3)", [
        effect.idemKey,
        name,
        effect.presenceEpoch,
      ]);
      return "applied";
    },
  });
  let stopping = false;
  const loop = (async () => {
    while (!stopping) if ((await delivery.deliver()) === 0) await sleep(10);
  })();
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, player = ""] = line.split(" ");
    if (command === "join") {
      online.add(player);
      const token = await presence.join(player);
      tokens.set(player, token);
      say(`joined ${token.epoch}`);
    } else if (command === "leave") {
      online.delete(player);
      const token = tokens.get(player);
      if (token !== undefined) await presence.quit(token);
      say("left");
    } else if (command === "stop") break;
  }
  stopping = true;
  await loop;
  say("stopped");
};

const STEP = ToolType.of(
  "test:step",
  codec(z.object({ step: z.number() })),
  codec(z.object({ step: z.number() })),
);

const leaseRun = async (run: string, steps: number, hangAt: number): Promise<void> => {
  const journal = await PostgresAgentJournal.open({ pool });
  const claims = new PostgresRunClaims({ leases: new PostgresLeases(pool, name), journal, ttlMillis: 1_000 });
  let claim = await claims.claim(run);
  while (claim === undefined) {
    await sleep(50);
    claim = await claims.claim(run);
  }
  const held = claim.lease;
  say(`leased ${held.epoch}`);
  const runner = new JournalStepRunner(claim.journal);
  for (let step = 1; step <= steps; step++) {
    let ran = false;
    const tool = Tool.of(STEP, async (input) => {
      ran = true;
      await fencedQuery(
        pool,
        held,
        "INSERT INTO effect (key, server, epoch) SELECT $1, $2, $3 WHERE :fence ON CONFLICT (key) DO NOTHING",
        [`${run}/${input.step}`, name, held.epoch],
      );
      if (input.step === hangAt) {
        say("hanging");
        await new Promise(() => undefined);
      }
      return { step: input.step };
    }).asIdempotent() as unknown as AnyTool;
    await runner.run(`${run}/${step}`, tool, { step }, () => tool.handler({ step }, undefined as never));
    say(`${ran ? "ran" : "replayed"} ${step}`);
    await sleep(20);
  }
  await fencedQuery(pool, held, "INSERT INTO run_done (run, server, epoch) SELECT $1, $2, $3 WHERE :fence", [
    run,
    name,
    held.epoch,
  ]);
  await claim.release();
  say("done");
};

try {
  if (mode === "exclusive") await exclusive(Number(rest[0]));
  else if (mode === "outbox") await outbox();
  else if (mode === "lease-run") await leaseRun(rest[0] ?? "", Number(rest[1]), Number(rest[2]));
  else throw new Error(`unknown mode ${mode}`);
} finally {
  await pool.end();
}
