import pg from "pg";
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./database-errors.js";

describe("isDatabaseUnavailable", () => {
  it("is true for a connection that could not be made (nothing listens on the port)", async () => {
    const client = new pg.Client({ host: "127.0.0.1", port: 1, connectionTimeoutMillis: 2_000 });
    const error = await client.connect().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("is true for pg's words for a cut connection and PostgreSQL's shutdown states, along the cause chain", () => {
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Client was closed and is not queryable"))).toBe(true);
    const shutdown = Object.assign(new Error("terminating connection due to administrator command"), {
      code: "57P01",
    });
    expect(isDatabaseUnavailable(new Error("charge failed", { cause: shutdown }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("starting up"), { code: "57P03" }))).toBe(true);
  });

  it("is false for a statement the database refused and for anything else", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("bug"))).toBe(false);
    expect(isDatabaseUnavailable("Connection terminated")).toBe(false);
  });
});
