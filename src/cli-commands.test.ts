import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./cli-commands.js";

/** A stream that keeps what was written. */
const capture = () => {
  const stream = {
    text: "",
    write(text: string): boolean {
      stream.text += text;
      return true;
    },
  };
  return stream;
};

const system = async (...argv: string[]) => {
  const io = { out: capture(), err: capture() };
  const code = await runCli(argv, io);
  return { code, out: io.out.text, err: io.err.text };
};

const COMMANDS = ["serve [--port N] [--panel-port N]", "route fit", "knowledge import", "quests inspect"];

describe("system <command>", () => {
  for (const flag of ["--help", "-h", "help"])
    it(`prints the usage of every command on stdout and exits 0 for ${flag}`, async () => {
      const run = await system(flag);
      expect(run).toMatchObject({ code: 0, err: "" });
      expect(run.out).toMatch(/^usage: system <command>\n/);
      for (const command of COMMANDS) expect(run.out).toContain(command);
    });

  it("refuses an unknown command with exit code 2, naming it, and the usage on stderr", async () => {
    const run = await system("serv");
    expect(run).toMatchObject({ code: 2, out: "" });
    expect(run.err).toContain('unknown command "serv"');
    expect(run.err).toContain("usage: system <command>");
  });

  it("prints the server's flags for `serve --help` and starts nothing", async () => {
    const run = await system("serve", "--help");
    expect(run).toEqual({
      code: 0,
      out:
        "usage: system serve [--port N] [--panel-port N] [--metrics-port N] [--data-dir DIR] [--server-dir DIR]\n" +
        "in front of your own server: npm start -- --backend HOST:PORT [--port N] [--data-dir DIR] (or config/system/gateway.json)\n",
      err: "",
    });
  });

  it("answers `npx system --help` through the package's bin with exit code 0", () => {
    const run = spawnSync(process.execPath, ["bin/system.js", "--help"], {
      cwd: join(import.meta.dirname, ".."),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    for (const command of COMMANDS) expect(run.stdout).toContain(command);
  });
});
