import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codec } from "../../../util/codec.js";
import { MemoryLogger } from "../../../util/logger.js";
import {
  isLoopbackHost,
  loadRconSettings,
  mergeRconFlags,
  parseRconAddress,
  type RconConfig,
  rconConfigSchema,
} from "./rcon-config.js";

const folder = (): string => mkdtempSync(join(tmpdir(), "rcon-config-"));

const load = async (password: string | undefined, config: Partial<RconConfig> = {}) => {
  const dir = folder();
  if (password !== undefined) {
    writeFileSync(join(dir, "rcon.secret"), password);
    chmodSync(join(dir, "rcon.secret"), 0o600);
  }
  const logger = new MemoryLogger();
  const result = await loadRconSettings({
    config: {
      host: "127.0.0.1",
      port: 25575,
      passwordFile: "rcon.secret",
      saveIntervalSeconds: 2,
      ...config,
    },
    baseDir: dir,
    logger,
  });
  return { result, logger, dir };
};

describe("rcon config", () => {
  it("the gateway.json block takes loopback and 25575 by default and needs a password file", () => {
    const config = codec(rconConfigSchema);
    expect(config.decode({ passwordFile: "rcon.secret" })).toEqual({
      success: true,
      value: { host: "127.0.0.1", port: 25575, passwordFile: "rcon.secret", saveIntervalSeconds: 2 },
    });
    expect(config.decode({ passwordFile: "x", saveIntervalSeconds: 5 })).toMatchObject({
      value: { saveIntervalSeconds: 5 },
    });
    expect(config.decode({ passwordFile: "x", saveIntervalSeconds: -1 }).success).toBe(false);
    const missing = config.decode({ host: "127.0.0.1" });
    expect(missing.success).toBe(false);
    expect(config.decode({ passwordFile: "x", port: 70000 }).success).toBe(false);
  });

  it("parses --rcon HOST:PORT, IPv6 in brackets, and refuses anything else", () => {
    expect(parseRconAddress("127.0.0.1:25575")).toEqual({
      success: true,
      value: { host: "127.0.0.1", port: 25575 },
    });
    expect(parseRconAddress("[::1]:25575")).toEqual({ success: true, value: { host: "::1", port: 25575 } });
    for (const bad of ["127.0.0.1", "host:0", "host:99999", ":25575", "a b:1"])
      expect(parseRconAddress(bad).success, bad).toBe(false);
  });

  it("flags override the file; an address without a password file is refused", () => {
    const fromFile: RconConfig = {
      host: "127.0.0.1",
      port: 25575,
      passwordFile: "file.secret",
      saveIntervalSeconds: 5,
    };
    expect(mergeRconFlags(undefined, {})).toEqual({ success: true, value: undefined });
    expect(mergeRconFlags(fromFile, { rcon: "localhost:25000" })).toEqual({
      success: true,
      value: { host: "localhost", port: 25000, passwordFile: "file.secret", saveIntervalSeconds: 5 },
    });
    expect(mergeRconFlags(fromFile, { rconPasswordFile: "flag.secret" })).toMatchObject({
      value: { port: 25575, passwordFile: "flag.secret" },
    });
    const refused = mergeRconFlags(undefined, { rcon: "127.0.0.1:25575" });
    expect(refused.success).toBe(false);
    if (!refused.success) expect(refused.error).toContain("--rcon-password-file");
  });

  it("reads the password without its trailing newline and stays quiet on loopback", async () => {
    const { result, logger, dir } = await load("s3cret pass\n");
    expect(result).toEqual({
      success: true,
      value: {
        host: "127.0.0.1",
        port: 25575,
        password: "s3cret pass",
        passwordFile: join(dir, "rcon.secret"),
      },
    });
    expect(logger.lines).toEqual([]);
  });

  it("warns loudly when RCON is not on loopback", async () => {
    const { result, logger } = await load("pw", { host: "192.168.1.20" });
    expect(result.success).toBe(true);
    expect(logger.has("is not on loopback: RCON is plain text")).toBe(true);
  });

  it("warns when other users can read the password file", async () => {
    const dir = folder();
    writeFileSync(join(dir, "open.secret"), "pw");
    chmodSync(join(dir, "open.secret"), 0o644);
    const logger = new MemoryLogger();
    await loadRconSettings({
      config: { host: "localhost", port: 25575, passwordFile: "open.secret" },
      baseDir: dir,
      logger,
    });
    expect(logger.has("can be read by every user")).toBe(true);
  });

  it("refuses a missing, empty or multi-line password file with a clear line", async () => {
    const missing = await load(undefined);
    expect(missing.result).toMatchObject({ success: false });
    if (!missing.result.success)
      expect(missing.result.error).toMatch(/cannot read the RCON password file .*ENOENT/);
    for (const bad of ["", "\n", "one\ntwo\n", "x".repeat(1447)]) {
      const { result } = await load(bad);
      expect(result.success, JSON.stringify(bad.slice(0, 20))).toBe(false);
    }
  });

  it("knows loopback hosts", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]", "::ffff:127.0.0.1"])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["0.0.0.0", "10.0.0.1", "example.com", "::", "128.0.0.1"])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});
