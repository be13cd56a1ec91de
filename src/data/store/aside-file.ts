import { open, rename, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { syncDirectory } from "../../util/atomic-file.js";

const exists = async (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return false;
      throw error;
    },
  );

/** `<path>.<label>-<time>`, with a counter when that name is taken: a kept file is never overwritten. */
const freeName = async (path: string, label: string, time: number): Promise<string> => {
  for (let attempt = 0; ; attempt++) {
    const candidate = `${path}.${label}-${time}${attempt === 0 ? "" : `-${attempt}`}`;
    if (!(await exists(candidate))) return candidate;
  }
};

/** Renames a damaged file to `<path>.<label>-<time>` beside it (durably) and returns the new path. */
export const moveAside = async (path: string, label: string, time: number): Promise<string> => {
  const aside = await freeName(path, label, time);
  await rename(path, aside);
  await syncDirectory(dirname(path));
  return aside;
};

/** Writes bytes to a new `<path>.<label>-<time>` beside `path` (durably) and returns its path. */
export const writeAside = async (
  path: string,
  label: string,
  time: number,
  bytes: Buffer,
): Promise<string> => {
  const aside = await freeName(path, label, time);
  const handle = await open(aside, "wx", 0o644);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await syncDirectory(dirname(path));
  return aside;
};
