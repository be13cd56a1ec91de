import { type SpawnOptions, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A throw-away PostgreSQL cluster from Debian's `postgresql` package, for tests and benches: `initdb` in a
 * temporary folder (as the `postgres` user when the tests run as root, since PostgreSQL refuses to run as
 * root), started with `pg_ctl` on a free port of 127.0.0.1 with trust authentication, dropped by `stop()`.
 * Nothing is downloaded; `.ci/run` installs the package.
 */
export interface PostgresCluster {
  /** A connection URL for the database `name` (default `postgres`). */
  url(name?: string): string;
  readonly port: number;
  readonly dataDir: string;
  /** Creates a fresh database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (`mode` as pg_ctl's `-m`: `fast` by default, `immediate` for a crash). */
  halt(mode?: "fast" | "immediate"): Promise<void>;
  /** Starts the stopped server again on the same port with the same data. */
  resume(): Promise<void>;
  /** Stops the server and deletes its folder. */
  stop(): Promise<void>;
}

export interface PostgresClusterOptions {
  /** Keep PostgreSQL's own fsync (benches measuring commit cost); tests turn it off to save time. */
  readonly durable?: boolean;
}

/** The folder of Debian's newest installed PostgreSQL binaries, or undefined when none is installed. */
export const postgresBinDir = (): string | undefined => {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? undefined : join(root, versions[0] as string, "bin");
};

/** The uid and gid of the `postgres` user from /etc/passwd when the process runs as root. */
const postgresUser = (): { uid: number; gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("postgres:"));
  if (line === undefined)
    throw new Error("running as root needs the postgres user (apt-get install postgresql)");
  const fields = line.split(":");
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

const run = (command: string, args: readonly string[], options: SpawnOptions): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(" ")} exited ${code}: ${output.trim()}`));
    });
  });

export const startPostgresCluster = async (
  options: PostgresClusterOptions = {},
): Promise<PostgresCluster> => {
  const bin = postgresBinDir();
  if (bin === undefined) throw new Error("PostgreSQL is not installed: apt-get install -y postgresql");
  const user = postgresUser();
  const root = mkdtempSync(join(tmpdir(), "system-pg-"));
  const dataDir = join(root, "data");
  const socketDir = join(root, "socket");
  mkdirSync(socketDir);
  chmodSync(root, 0o755);
  if (user !== undefined) {
    chownSync(root, user.uid, user.gid);
    chownSync(socketDir, user.uid, user.gid);
  }
  const asOwner: SpawnOptions = {
    cwd: root,
    env: { ...process.env, LC_ALL: "C.UTF-8", LANG: "C.UTF-8" },
    ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
  };
  await run(
    join(bin, "initdb"),
    ["-D", dataDir, "--locale=C.UTF-8", "-E", "UTF8", "-A", "trust", "-U", "postgres", "--no-sync"],
    asOwner,
  );
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${socketDir}`,
    "-c listen_addresses=127.0.0.1",
    "-c max_connections=200",
    ...(options.durable === true ? [] : ["-c fsync=off", "-c full_page_writes=off"]),
  ].join(" ");
  const logFile = join(root, "server.log");
  const pgCtl = (args: readonly string[]) => run(join(bin, "pg_ctl"), ["-D", dataDir, ...args], asOwner);
  const start = () => pgCtl(["-w", "-l", logFile, "-o", settings, "start"]);
  await start();
  let running = true;
  const url = (name = "postgres") => `postgres://postgres@127.0.0.1:${port}/${name}`;
  return {
    url,
    port,
    dataDir,
    async createDatabase(name) {
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replaceAll('"', "")}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async halt(mode = "fast") {
      if (!running) return;
      running = false;
      await pgCtl(["-w", "-m", mode, "stop"]);
    },
    async resume() {
      if (running) return;
      await start();
      running = true;
    },
    async stop() {
      if (running) {
        running = false;
        await pgCtl(["-w", "-m", "immediate", "stop"]).catch(() => undefined);
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
};
