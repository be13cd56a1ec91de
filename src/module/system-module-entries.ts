import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { codec, type Json } from "../util/codec.js";
import { Identifier } from "../util/identifier.js";
import type { Logger } from "../util/logger.js";
import type { SystemModuleEntry } from "./server-module.js";

const ENTRY = codec(
  z.object({
    type: z.string().refine(Identifier.isValid, "invalid identifier"),
    enabled: z.boolean().default(true),
    enabled_by_default: z.boolean().optional(),
    server: z.unknown().default({}),
    client: z.unknown().default({}),
  }),
);

/**
 * Reads `data/<namespace>/system_module/*.json` from each data-pack root; a later root overrides an entry with the
 * same id. Invalid entries are logged and skipped, never guessed.
 */
export const readSystemModuleEntries = (
  packRoots: readonly string[],
  logger: Logger,
): SystemModuleEntry[] => {
  const entries = new Map<string, SystemModuleEntry>();
  for (const root of packRoots) {
    const dataFolder = join(root, "data");
    for (const namespace of listFolder(dataFolder)) {
      const folder = join(dataFolder, namespace, "system_module");
      for (const file of listFolder(folder).filter((name) => name.endsWith(".json"))) {
        const source = join(folder, file);
        const id = Identifier.tryParse(`${namespace}:${file.slice(0, -".json".length)}`);
        if (id === undefined) {
          logger.warn(`system_module ${source}: file name is not a valid identifier; skipped`);
          continue;
        }
        let raw: unknown;
        try {
          raw = JSON.parse(readFileSync(source, "utf8"));
        } catch (error) {
          logger.error(`system_module ${source}: not valid JSON; skipped`, error);
          continue;
        }
        const decoded = ENTRY.decode(raw);
        if (!decoded.success) {
          logger.warn(`system_module ${source}: ${decoded.error}; skipped`);
          continue;
        }
        const value = decoded.value;
        entries.set(id.toString(), {
          id,
          type: Identifier.parse(value.type),
          enabled: value.enabled,
          enabledByDefault: value.enabled_by_default,
          server: (value.server ?? {}) as Json,
          client: (value.client ?? {}) as Json,
          source,
        });
      }
    }
  }
  return [...entries.values()].sort((left, right) => left.id.toString().localeCompare(right.id.toString()));
};

const listFolder = (folder: string): string[] => {
  try {
    return readdirSync(folder).sort();
  } catch {
    return [];
  }
};
