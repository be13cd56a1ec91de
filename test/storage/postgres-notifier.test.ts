import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresNotifier } from "../../src/data/network/postgres-notifier.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { waitFor } from "../e2e/host-support.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";

const CHANNEL = "system_test";

describe("LISTEN/NOTIFY on a dedicated connection", () => {
  let cluster: PostgresCluster;
  let url: string;
  let pool: pg.Pool;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    url = await cluster.createDatabase("notify");
    pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on("error", () => {});
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  it("delivers notifications, and after a database restart listens again and re-reads first", async () => {
    const received: string[] = [];
    const events: string[] = [];
    const logger = new MemoryLogger();
    const notifier = await PostgresNotifier.start({
      connection: { connectionString: url },
      channel: CHANNEL,
      onMessage: (payload) => {
        received.push(payload);
        events.push(`message ${payload}`);
      },
      onResync: () => {
        events.push("resync");
      },
      logger,
      backoff: { firstMillis: 50, maxMillis: 500 },
    });
    try {
      await PostgresNotifier.publish(pool, CHANNEL, "before");
      await waitFor(() => (received.includes("before") ? true : undefined));
      await PostgresNotifier.publish(pool, "another_channel", "ignored");

      await cluster.halt();
      await waitFor(() => (notifier.listening ? undefined : true));
      await cluster.resume();
      await waitFor(() => (notifier.reconnects === 1 && notifier.listening ? true : undefined), 30_000);
      await waitFor(() => (events.includes("resync") ? true : undefined));

      await PostgresNotifier.publish(pool, CHANNEL, "after");
      await waitFor(() => (received.includes("after") ? true : undefined));
      expect(received).toEqual(["before", "after"]);
      // the re-read comes once the connection listens again, before anything it delivers
      expect(events).toEqual(["message before", "resync", "message after"]);
      expect(logger.has("notification connection dropped")).toBe(true);
    } finally {
      await notifier.close();
    }
  }, 60_000);

  it("keeps trying while the database stays down, and stops for good on close", async () => {
    let resyncs = 0;
    const notifier = await PostgresNotifier.start({
      connection: { connectionString: url, connectionTimeoutMillis: 1_000 },
      channel: CHANNEL,
      onMessage: () => {},
      onResync: () => {
        resyncs++;
      },
      logger: new MemoryLogger(),
      backoff: { firstMillis: 20, maxMillis: 100 },
    });
    await cluster.halt();
    await waitFor(() => (notifier.listening ? undefined : true));
    // several failed attempts while down, none counted as a reconnect
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(notifier.reconnects).toBe(0);
    await cluster.resume();
    await waitFor(() => (resyncs === 1 ? true : undefined), 30_000);
    await notifier.close();
    expect(notifier.listening).toBe(false);
  }, 60_000);
});
