import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { ConfigInstance } from "../../util/config-instance.js";
import type { Logger } from "../../util/logger.js";

/**
 * Where a server keeps its state (`config/system/storage.json`). `files`: the data folder's files and SQLite,
 * for one server (the default). `postgres`: one PostgreSQL database shared by every server of a network; the
 * password comes from `passwordFile` (relative to the data folder) or `PGPASSWORD`, never from this file.
 */
export type StorageConfig =
  | { readonly backend: "files" }
  | {
      readonly backend: "postgres";
      /** `postgres://user@host:port/database`; a password written in it is refused. */
      readonly url: string;
      readonly passwordFile?: string;
      /** Connections this server opens at most (default 10). */
      readonly poolSize: number;
      /**
       * This server's name in the network (presence, deliveries, its liveness lease); unique per server and kept
       * across restarts. Default: the host name and the data folder's path.
       */
      readonly server?: string;
      /**
       * How long this server's leases last without renewal (its runs' claims, its liveness): how long the work of
       * a server that died waits before another server takes it over (default 30 000 ms; renewed every third).
       */
      readonly leaseMillis?: number;
    };

const STORAGE_CONFIG = codec<StorageConfig>(
  z.discriminatedUnion("backend", [
    z.object({ backend: z.literal("files") }),
    z.object({
      backend: z.literal("postgres"),
      url: z
        .string()
        .min(1)
        .max(2_000)
        .refine((url) => /^postgres(ql)?:\/\//.test(url), "must start with postgres://")
        .refine(
          (url) => !/^postgres(ql)?:\/\/[^/@]*:[^/@]*@/.test(url),
          "must not hold a password: use passwordFile",
        ),
      passwordFile: z.string().min(1).max(1_000).optional(),
      poolSize: z.number().int().min(1).max(100).default(10),
      server: z
        .string()
        .min(1)
        .max(200)
        .regex(/^[\w.:@/-]+$/, "letters, digits and . : @ / - _ only")
        .optional(),
      leaseMillis: z.number().int().min(1_000).max(600_000).optional(),
    }),
  ]) as unknown as z.ZodType<StorageConfig>,
);

export const DEFAULT_STORAGE_CONFIG: StorageConfig = { backend: "files" };

/** `config/system/storage.json` (written with the defaults when missing; a broken file stops the start naming it). */
export const loadStorageConfig = async (dataDir: string, logger: Logger): Promise<StorageConfig> => {
  const config = new ConfigInstance<StorageConfig>({
    path: join(dataDir, "config", "system", "storage.json"),
    codec: STORAGE_CONFIG,
    defaults: DEFAULT_STORAGE_CONFIG,
    logger,
    name: "storage.json",
    onInvalid: "refuse",
  });
  await config.reload();
  return config.get();
};

/** The database password: the first line of `passwordFile` (relative to the data folder), else `PGPASSWORD`. */
export const storagePassword = async (
  config: Extract<StorageConfig, { backend: "postgres" }>,
  dataDir: string,
  environment: Readonly<Record<string, string | undefined>>,
): Promise<string | undefined> => {
  if (config.passwordFile === undefined) return environment.PGPASSWORD;
  const path = config.passwordFile.startsWith("/") ? config.passwordFile : join(dataDir, config.passwordFile);
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new Error(`storage.json: cannot read passwordFile ${path}: ${error.code ?? error.message}`);
  });
  return text.split(/\r?\n/)[0];
};
