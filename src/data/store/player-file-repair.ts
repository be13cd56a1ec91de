import { readFile } from "node:fs/promises";
import type { DamagedEntry, PlayerRecord } from "../../agent/storage/player-data.js";
import { writeFileAtomic } from "../../util/atomic-file.js";
import type { Logger } from "../../util/logger.js";
import type { Validation } from "../../util/validation.js";
import { moveAside, writeAside } from "./aside-file.js";
import { type NbtFileKind, parseNbtFile } from "./nbt-file.js";
import { decodePlayer } from "./player-file.js";

/** Reads a kept copy of a player file without touching it: its record, or why it is still unreadable. */
export const readPlayerCopy = async (
  path: string,
  playerId: string,
  kind: NbtFileKind,
): Promise<Validation<PlayerRecord>> => {
  const fields = await parseNbtFile(await readFile(path), kind);
  return fields.success ? decodePlayer(fields.value, playerId) : fields;
};

/**
 * Keeps a copy of a player file holding entries their codecs refuse (`<file>.corrupt-<time>`, durable, never
 * over another kept file) with a log line naming them; returns the copy. The file itself is left as it is.
 */
export const keepDamagedCopy = async (
  path: string,
  time: number,
  entries: readonly DamagedEntry[],
  logger: Logger,
): Promise<string> => {
  const kept = await writeAside(path, "corrupt", time, await readFile(path));
  const names = entries.map((entry) => `${entry.owner}/${entry.type}`).join(", ");
  const reasons = entries.map((entry) => entry.reason).join("; ");
  logger.error(
    `player file ${path} holds damaged entries (${names}: ${reasons}); a copy is kept at ${kept}, those entries start empty`,
  );
  return kept;
};

/**
 * Puts a copy back as the file at `path`: the file it replaces is first moved aside to `<file>.replaced-<time>`
 * (returned; undefined when there was none), then the copy's bytes are written in its place atomically.
 */
export const putCopyBack = async (path: string, copy: string, time: number): Promise<string | undefined> => {
  const bytes = await readFile(copy);
  const replaced = await moveAside(path, "replaced", time).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  await writeFileAtomic(path, bytes);
  return replaced;
};
