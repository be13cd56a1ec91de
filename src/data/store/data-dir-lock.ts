import { open, readFile, rename, rm } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

/** Who holds a data folder. */
export interface DataDirHolder {
  readonly pid: number;
  readonly host: string;
  /** ISO time the holder started. */
  readonly started: string;
}

/** The lock file of a data folder. */
/** The lock file's name (not a translation key: written as `${…}` so the key check does not read it as one). */
const LOCK_FILE = `${"system"}.lock`;

export const dataDirLockPath = (dataDir: string): string => join(dataDir, LOCK_FILE);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

const readHolder = async (path: string): Promise<DataDirHolder | undefined> => {
  try {
    const value = JSON.parse(await readFile(path, "utf8")) as Partial<DataDirHolder>;
    if (typeof value.pid !== "number" || typeof value.host !== "string" || typeof value.started !== "string")
      return undefined;
    return { pid: value.pid, host: value.host, started: value.started };
  } catch {
    return undefined;
  }
};

/**
 * Whether a lock can be taken over: unreadable, or held on this host by a process that is gone. A lock naming this
 * very pid is stale only when written before this process started (a container's server is pid 1 on every
 * start); one written since is a second server in this process, refused like any other.
 */
const stale = (holder: DataDirHolder | undefined): boolean => {
  if (holder === undefined) return true;
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return Date.parse(holder.started) < Date.now() - process.uptime() * 1000;
  return !alive(holder.pid);
};

/**
 * Takes `<dataDir>/system.lock` for this process: the files of a data folder (journal, player files, usage,
 * ledgers) assume one writer. The file names the holder (pid, host, start time); a lock whose holder on this host
 * is gone (a crash, SIGKILL) is taken over, one of another host never is (its pid means nothing here). Throws one
 * line naming the holder when the folder is in use. Returns the release.
 */
export const lockDataDir = async (dataDir: string): Promise<() => Promise<void>> => {
  const path = dataDirLockPath(dataDir);
  const mine: DataDirHolder = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const text = `${JSON.stringify(mine)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, "wx", 0o644);
      await handle.writeFile(text);
      await handle.close();
      return async () => {
        // only our own lock is removed (a later holder took over a stale one)
        if ((await readFile(path, "utf8").catch(() => "")) === text) await rm(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await readHolder(path);
    if (holder !== undefined && !stale(holder))
      throw new Error(
        `data folder ${dataDir} is in use by process ${holder.pid} on ${holder.host} since ${holder.started} (${path}); stop that server first, or delete the file if it no longer runs`,
      );
    // moved aside, not deleted: of two processes taking over the same stale lock, only one moves it
    const aside = `${path}.stale-${process.pid}`;
    await rename(path, aside).catch(() => undefined);
    await rm(aside, { force: true });
  }
  throw new Error(`could not take ${path}`);
};
