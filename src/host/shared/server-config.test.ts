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

  it("refuses an invalid file, naming it and the field, and never replaces it with defaults", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "system-config-"));
    await loadServerConfig(dataDir, new MemoryLogger());
    const text = JSON.stringify({ port: "high", worldFolder: "/srv/world" });
    writeFileSync(serverConfigPath(dataDir), text);
    await expect(loadServerConfig(dataDir, new MemoryLogger())).rejects.toThrow(
      new RegExp(`${serverConfigPath(dataDir)} is invalid: port`),
    );
    expect(readFileSync(serverConfigPath(dataDir), "utf8")).toBe(text);
  });
});
