import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";

describe("a throw-away PostgreSQL cluster (test support)", () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(() => cluster.stop());

  it("serves fresh databases with a UTF-8 locale, and survives a stop and a start on the same port", async () => {
    const url = await cluster.createDatabase("support_check");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(
      "SELECT current_setting('lc_ctype') AS ctype, upper('ab中文') AS text",
    );
    await client.end();
    expect(rows[0]).toEqual({ ctype: "C.UTF-8", text: "AB中文" });
    await cluster.halt();
    await cluster.resume();
    const again = new pg.Client({ connectionString: url });
    await again.connect();
    expect((await again.query("SELECT 1 AS one")).rows[0]).toEqual({ one: 1 });
    await again.end();
  });
});
