/**
 * The child of the playtime crash test: one online player whose playtime is counted as the shipped server counts
 * it (PlayerGameEvents over a FileAgentStore with a tick write delay), on a clock the parent moves. Lines on stdin:
 * `tick` (one minute passes and playtime ticks), `credit <id>` (a business transaction: a points ledger entry).
 * Each is acknowledged on stdout once done (`ticked <n>`, `credited <id>`). Killed by the parent (SIGKILL).
 * Usage: playtime-worker <world> <tickWriteDelayMillis>
 */
import { writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { ModuleData } from "../../src/agent/storage/player-data.js";
import { PlayerGameEvents } from "../../src/assistant/player-game-events.js";
import { FileAgentStore } from "../../src/data/store/file-agent-store.js";
import { pointsLedgerStorage } from "../../src/module/builtin/storage/points-ledger.js";
import { silentLogger } from "../../src/util/logger.js";

const PLAYTIME_PLAYER = "11111111-2222-3333-4444-555555555555";

const [world, delay] = process.argv.slice(2);
if (world !== undefined && delay !== undefined) {
  let now = 1_000_000;
  const store = new FileAgentStore({ world, tickWriteDelayMillis: Number(delay) });
  const players = new PlayerGameEvents(
    { emit: async () => {} },
    { now: () => now, timeZone: "UTC" },
    store,
    silentLogger,
  );
  await store.load(PLAYTIME_PLAYER);
  await players.joined(PLAYTIME_PLAYER, false, async () => {});
  let ticks = 0;
  writeSync(1, "ready\n");
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, argument] = line.split(" ");
    if (command === "tick") {
      now += 60_000;
      await players.tickPlaytime();
      writeSync(1, `ticked ${++ticks}\n`);
    } else if (command === "credit" && argument !== undefined) {
      await store.transaction(PLAYTIME_PLAYER, (data) =>
        ModuleData.get(data, pointsLedgerStorage).credit(argument, 5, "test", now),
      );
      writeSync(1, `credited ${argument}\n`);
    }
  }
}
