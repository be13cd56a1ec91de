import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** The entries of `folder` that `accept` takes, as paths under it in name order; none when it does not exist. */
export const listed = (folder: string, accept: (name: string, isFolder: boolean) => boolean): string[] => {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => accept(entry.name, entry.isDirectory()))
    .map((entry) => join(folder, entry.name))
    .sort();
};
