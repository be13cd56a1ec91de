import { readFile, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import type { ContextType } from "../agent/module/context-type.js";
import type { AnyServerModuleType } from "../module/server-module.js";
import type { SystemExtension } from "../module/system-extension.js";
import { codec } from "../util/codec.js";
import { ConfigInstance } from "../util/config-instance.js";
import type { Logger } from "../util/logger.js";

export type { ModuleContextEvent, SystemExtension } from "../module/system-extension.js";

/** The loaded extensions of one data directory, ready for `AssistantServer.create`. */
export interface LoadedExtensions {
  readonly names: readonly string[];
  readonly packRoots: readonly string[];
  readonly types: readonly AnyServerModuleType[];
  readonly services: readonly [ContextType<unknown>, unknown][];
}

interface ExtensionsSettings {
  readonly extensions: readonly string[];
}

const EXTENSIONS_CODEC = codec<ExtensionsSettings>(
  z
    .object({ extensions: z.array(z.string().trim().min(1)).default([]) })
    .strict() as z.ZodType<ExtensionsSettings>,
);

/** `<dataDir>/config/system/extensions.json`. */
export const extensionsPath = (dataDir: string): string =>
  join(dataDir, "config", "system", "extensions.json");

const isPath = (entry: string): boolean => entry.startsWith(".") || isAbsolute(entry);

/** The file to import for an entry: a path (relative to the data directory) or a package name. */
const resolveEntry = async (entry: string, dataDir: string): Promise<string> => {
  if (isPath(entry)) {
    const path = resolve(dataDir, entry);
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) throw new Error(`${path} does not exist`);
    if (!info.isDirectory()) return path;
    const manifest = JSON.parse(await readFile(join(path, "package.json"), "utf8").catch(() => "{}")) as {
      main?: unknown;
    };
    return join(path, typeof manifest.main === "string" ? manifest.main : "index.js");
  }
  // a package installed beside the server's data, else beside System
  for (const base of [join(dataDir, "package.json"), join(process.cwd(), "package.json")])
    try {
      return createRequire(base).resolve(entry);
    } catch {
      // try the next place
    }
  throw new Error(`package ${entry} is not installed (npm install it in ${dataDir} or beside System)`);
};

const isType = (value: unknown): value is AnyServerModuleType =>
  typeof value === "object" &&
  value !== null &&
  "id" in value &&
  "config" in value &&
  typeof (value as { create?: unknown }).create === "function";

/**
 * Loads the extension packages `extensions.json` lists, in order; creates the file (empty list) when missing.
 * Any failure — an invalid file, a package that is missing, throws on import or exports no extension — refuses
 * the start, naming the file or the entry.
 */
export const loadExtensions = async (dataDir: string, logger: Logger): Promise<LoadedExtensions> => {
  const config = new ConfigInstance<ExtensionsSettings>({
    path: extensionsPath(dataDir),
    codec: EXTENSIONS_CODEC,
    defaults: { extensions: [] },
    logger,
    name: "extensions.json",
    onInvalid: "refuse",
  });
  await config.reload();
  const names: string[] = [];
  const types: AnyServerModuleType[] = [];
  const packRoots: string[] = [];
  const services: [ContextType<unknown>, unknown][] = [];
  for (const entry of config.get().extensions) {
    let extension: SystemExtension;
    try {
      const file = await resolveEntry(entry, dataDir);
      const loaded = (await import(pathToFileURL(file).href)) as {
        default?: SystemExtension;
        systemExtension?: SystemExtension;
      };
      const found = loaded.systemExtension ?? loaded.default;
      if (typeof found !== "object" || found === null)
        throw new Error("exports no extension (export `systemExtension` or a default { types, context })");
      if (found.types !== undefined && (!Array.isArray(found.types) || !found.types.every(isType)))
        throw new Error("`types` must be a list of feature types ({ id, config, create })");
      if (found.dataPack !== undefined && (typeof found.dataPack !== "string" || !isAbsolute(found.dataPack)))
        throw new Error("`dataPack` must be an absolute folder path");
      extension = found;
      await extension.context?.({
        dataDir,
        logger,
        provide: (type, value) => {
          services.push([type as ContextType<unknown>, value]);
        },
      });
    } catch (error) {
      throw new Error(
        `extension ${JSON.stringify(entry)} in ${extensionsPath(dataDir)}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    types.push(...(extension.types ?? []));
    if (extension.dataPack !== undefined) packRoots.push(extension.dataPack);
    names.push(entry);
  }
  if (names.length > 0) logger.info(`extensions loaded: ${names.join(", ")}`);
  return { names, types, packRoots, services };
};
