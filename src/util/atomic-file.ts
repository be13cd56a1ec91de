import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Replaces a file atomically: write a temp file in the same folder, fsync it, rename it over the target,
 * fsync the folder. A crash at any instant leaves either the old or the new content, never a mix. `data` may be
 * chunks, written one after another (a big file need not be one string in memory).
 */
export const writeFileAtomic = async (
  path: string,
  data: Uint8Array | string | Iterable<Uint8Array | string>,
): Promise<void> => {
  const folder = dirname(path);
  const temp = join(folder, `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const handle = await open(temp, "w", 0o644);
  try {
    if (typeof data === "string" || data instanceof Uint8Array) await handle.writeFile(data);
    // each chunk from where the previous one ended
    else for (const chunk of data) await handle.writeFile(chunk);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(folder);
};

/** fsyncs a folder so that a rename inside it is durable. */
export const syncDirectory = async (folder: string): Promise<void> => {
  const handle = await open(folder, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};
