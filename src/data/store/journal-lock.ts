import { open, readFile, rm } from "node:fs/promises";

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * A pid lock file: a second server process on the same world save must not append to the same journal.
 * A lock left by a dead process (a crash, SIGKILL) is taken over.
 */
export const acquireLock = async (path: string): Promise<() => Promise<void>> => {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, "wx", 0o644);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = Number((await readFile(path, "utf8").catch(() => "")).trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner))
      throw new Error(`${path} is held by running process ${owner}; is another server using this world?`);
    await rm(path, { force: true });
  }
  throw new Error(`could not take ${path}`);
};
