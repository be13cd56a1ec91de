import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UsageStore } from "../../src/agent/storage/usage-store.js";
import { openStorage } from "../../src/data/network/open-storage.js";
import type { PointsAccounts } from "../../src/data/player-state/points-accounts.js";
import { FileAgentStore } from "../../src/data/store/file-agent-store.js";
import {
  type CheckInOutcome,
  claimInFiles,
  claimShared,
} from "../../src/module/builtin/check-in/check-in-claim.js";
import type { CheckInConfig } from "../../src/module/builtin/check-in/check-in-config.js";
import { previousDay } from "../../src/module/builtin/check-in/local-day.js";
import { CheckInLedger } from "../../src/module/builtin/storage/check-in-ledger.js";
import { checkInStorage } from "../../src/module/builtin/storage/check-in-storage.js";
import { PlayerFilePoints } from "../../src/module/builtin/storage/player-file-points.js";
import { Identifier } from "../../src/util/identifier.js";
import { silentLogger } from "../../src/util/logger.js";

/** The check-in config the suites use: 3 bread a day, 1 diamond on every 2nd day of a streak, 10 points. */
export const CHECK_IN_CONFIG: CheckInConfig = {
  rewards: [{ item: "minecraft:bread", count: 3 }],
  streak_bonus: { every: 2, items: [{ item: "minecraft:diamond", count: 1 }] },
  points: 10,
};

/** One backend's stores as the features use them. */
export interface NetworkBackend {
  readonly points: PointsAccounts;
  readonly usage: UsageStore;
  /** This server's player records, as the check-in writes them. */
  readonly store: FileAgentStore;
  checkIn(playerId: string, day: string): Promise<CheckInOutcome>;
  /**
   * The statement that decides who is paid (the day's claim with its points), alone; undefined for files, where
   * the whole check-in is one player-file transaction.
   */
  readonly claimOnly?: (playerId: string, day: string) => Promise<boolean>;
  close(): Promise<void>;
}

const STORAGE = checkInStorage(Identifier.parse("system:check_in"));

/**
 * Opens a backend through open-storage.ts over a fresh data folder: `url` undefined for the files of one server,
 * else a PostgreSQL database. A check-in goes the way CheckInModule takes for that backend.
 */
export const openBackend = async (
  url: string | undefined,
  now = () => Date.now(),
): Promise<NetworkBackend> => {
  const dataDir = mkdtempSync(join(tmpdir(), "system-backend-"));
  const world = join(dataDir, "world");
  const storage = await openStorage({
    dataDir,
    world,
    logger: silentLogger,
    environment: {},
    config: url === undefined ? { backend: "files" } : { backend: "postgres", url, poolSize: 4 },
    lock: true,
    now,
  });
  const store = new FileAgentStore({ world });
  const ledger = new CheckInLedger(join(world, "system", "check-in-ledger.json"));
  const points = storage.points ?? new PlayerFilePoints(store);
  const claims = storage.checkIns;
  return {
    points,
    store,
    usage: storage.usage,
    ...(claims === undefined
      ? {}
      : {
          claimOnly: (playerId: string, day: string) =>
            claims
              .checkIn({
                playerId,
                day,
                yesterday: previousDay(day),
                rewards: { items: [] },
                points: 10,
                at: now(),
              })
              .then((outcome) => outcome.claimed),
        }),
    checkIn: (playerId, day) => {
      const attempt = {
        playerId,
        day,
        yesterday: previousDay(day),
        now: now(),
        config: CHECK_IN_CONFIG,
        store,
        storage: STORAGE,
      };
      return storage.checkIns === undefined
        ? claimInFiles(attempt, ledger, silentLogger)
        : claimShared(attempt, storage.checkIns);
    },
    close: async () => {
      await store.flush();
      await store.close();
      await storage.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
