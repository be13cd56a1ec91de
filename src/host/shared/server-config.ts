import { isAbsolute, join } from "node:path";
import { z } from "zod";
import { type Codec, codec } from "../../util/codec.js";
import { ConfigInstance } from "../../util/config-instance.js";
import type { Logger } from "../../util/logger.js";

const serverConfigSchema = z.object({
  host: z.string().min(1).default("127.0.0.1"),
  port: z.number().int().min(0).max(65535).default(25565),
  version: z.string().min(1).default("1.21.4"),
  /** Relative to the data directory unless absolute. */
  worldFolder: z.string().min(1).default("world"),
  onlineMode: z.boolean().default(false),
  /** Player names that are server operators (op level 4). */
  ops: z.array(z.string()).default([]),
  generation: z.enum(["diamond_square", "superflat"]).default("diamond_square"),
  maxPlayers: z.number().int().positive().default(100),
  viewDistance: z.number().int().min(2).max(32).default(6),
  /** How often every online player's data file is saved, in seconds (items given are saved at once anyway). */
  playerSaveSeconds: z.number().int().min(5).max(3600).default(60),
});

/** `config/system/server.json`: where and how the embedded Minecraft server listens. */
export type ServerConfig = z.infer<typeof serverConfigSchema>;
export const SERVER_CONFIG: Codec<ServerConfig> = codec(serverConfigSchema) as Codec<ServerConfig>;
export const DEFAULT_SERVER_CONFIG: ServerConfig = serverConfigSchema.parse({});

/** The config file of a data directory (`<dataDir>/config/system/server.json`). */
export const serverConfigPath = (dataDir: string): string => join(dataDir, "config", "system", "server.json");

/** Reads (creating with defaults when missing) the server config of a data directory. */
export const loadServerConfig = async (dataDir: string, logger: Logger): Promise<ServerConfig> => {
  const instance = new ConfigInstance<ServerConfig>({
    path: serverConfigPath(dataDir),
    codec: SERVER_CONFIG,
    defaults: DEFAULT_SERVER_CONFIG,
    logger,
    name: "server.json",
    // a broken server.json must not start a default world beside the admin's own (worldFolder, port)
    onInvalid: "refuse",
  });
  await instance.reload();
  return instance.get();
};

/** The world folder as an absolute-or-cwd path: relative folders live inside the data directory. */
export const worldFolderOf = (config: ServerConfig, dataDir: string): string =>
  isAbsolute(config.worldFolder) ? config.worldFolder : join(dataDir, config.worldFolder);
