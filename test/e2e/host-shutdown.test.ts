import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { joinBot, tempFolder, waitFor } from "./host-support.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("the standalone host process", () => {
  const dataDir = tempFolder("system-serve-");
  let child: ChildProcess | undefined;
  let output = "";

  afterAll(() => {
    if (child?.exitCode === null) child.kill("SIGKILL");
  });

  it("announces its port, serves a bot, and exits 0 after flushing on SIGTERM", async () => {
    child = spawn(
      process.execPath,
      ["--import", "tsx", "src/host/flying-squid/standalone.ts", "--port", "0", "--data-dir", dataDir],
      { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] },
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child?.once("exit", (code, signal) => resolve({ code, signal })),
    );

    const line = await waitFor(
      () => output.split("\n").find((entry) => /^listening on /.test(entry)),
      30_000,
    );
    const match = /^listening on 127\.0\.0\.1:(\d+)$/.exec(line);
    expect(match).not.toBeNull();
    const port = Number(match![1]);
    expect(port).not.toBe(25565);

    const config = JSON.parse(readFileSync(join(dataDir, "config", "system", "server.json"), "utf8")) as {
      port: number;
      version: string;
      onlineMode: boolean;
    };
    expect(config).toMatchObject({ port: 25565, version: "1.21.4", onlineMode: false });
    expect(existsSync(join(dataDir, "world"))).toBe(true);

    const bot = await joinBot(port, "Steve");
    const ended = new Promise<void>((resolve) => bot.once("end", () => resolve()));
    bot.chat("/system hi there");
    await waitFor(() => (output.includes("command Steve: system hi there") ? true : undefined));

    child.kill("SIGTERM");
    expect(await exited, output).toEqual({ code: 0, signal: null });
    await ended;
    expect(output).toContain("flushed");
    expect(output.indexOf("flushed")).toBeLessThan(output.indexOf("stopped"));
  });
});
