import { describe, expect, it } from "vitest";
import { MemoryLogger } from "../../util/logger.js";
import { guardProcess } from "./process-guard.js";

describe("guardProcess", () => {
  it("logs an uncaught error and keeps serving, but stays quiet about a console that is gone (EPIPE)", () => {
    const logger = new MemoryLogger();
    const release = guardProcess(logger);
    try {
      process.emit("uncaughtException", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      expect(logger.lines).toEqual([]);
      process.emit("uncaughtException", new Error("plugin exploded"));
      expect(logger.has("uncaught error in the game server; still serving")).toBe(true);
    } finally {
      release();
    }
  });
});
