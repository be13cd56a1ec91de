import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryLogger } from "../../util/logger.js";
import { DEFAULT_SERVER_CONFIG, loadServerConfig, serverConfigPath, worldFolderOf } from "./server-config.js";

describe("server config", () => {
  it("writes the defaults into a fresh data directory: 127.0.0.1:25565, 1.21.4, offline", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "system-config-"));
    const config = await loadServerConfig(dataDir, new MemoryLogger());
    expect(config).toEqual(DEFAULT_SERVER_CONFIG);
    expect(config).toMatchObject({ host: "127.0.0.1", port: 25565, version: "1.21.4", onlineMode: false });
    expect(JSON.parse(readFileSync(serverConfigPath(dataDir), "utf8"))).toMatchObject({ port: 25565 });
    expect(worldFolderOf(config, dataDir)).toBe(join(dataDir, "world"));
  });

  it("reads an edited file, filling omitted fields, and keeps absolute world folders", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "system-config-"));
    await loadServerConfig(dataDir, new MemoryLogger());
    writeFileSync(
      serverConfigPath(dataDir),
      JSON.stringify({ port: 25570, worldFolder: "/srv/world", ops: ["Alex"] }),
    );
    const config = await loadServerConfig(dataDir, new MemoryLogger());
    expect(config).toMatchObject({ port: 25570, ops: ["Alex"], version: "1.21.4" });
    expect(worldFolderOf(config, dataDir)).toBe("/srv/world");
  });

  it("falls back to the defaults and logs when the file is invalid", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "system-config-"));
    await loadServerConfig(dataDir, new MemoryLogger());
    writeFileSync(serverConfigPath(dataDir), JSON.stringify({ port: "high" }));
    const logger = new MemoryLogger();
    expect(await loadServerConfig(dataDir, logger)).toEqual(DEFAULT_SERVER_CONFIG);
    expect(logger.has("invalid")).toBe(true);
  });
});
