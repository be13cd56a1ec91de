import { join, resolve } from "node:path";
import { z } from "zod";
import { type Codec, codec } from "../../util/codec.js";
import { ConfigInstance } from "../../util/config-instance.js";
import type { Logger } from "../../util/logger.js";
import { invalid, type Validation, valid } from "../../util/validation.js";
import { rconConfigSchema } from "./rcon/rcon-config.js";

/** A `HOST:PORT` address (`[::1]:25565` for IPv6). */
export interface Address {
  readonly host: string;
  readonly port: number;
}

/** Parses `HOST:PORT`; the port may be 0 (any free port) only where `allowZero` says so. */
export const parseAddress = (text: string, allowZero = false): Validation<Address> => {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text.trim());
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (host === undefined || !Number.isInteger(port) || port > 65535 || (port === 0 && !allowZero))
    return invalid(`expected HOST:PORT, got ${JSON.stringify(text)}`);
  return valid({ host, port });
};

/** Formats an address as `HOST:PORT` (brackets around IPv6 hosts). */
export const formatAddress = (address: Address): string =>
  `${address.host.includes(":") ? `[${address.host}]` : address.host}:${address.port}`;

const addressText = (allowZero: boolean) =>
  z.string().refine((text) => parseAddress(text, allowZero).success, { message: "expected HOST:PORT" });

const gatewayConfigSchema = z.object({
  /** Where players connect. */
  listen: addressText(true).default("127.0.0.1:25565"),
  /** The admin's server (offline mode, on loopback); unset until the admin names it here or with --backend. */
  backend: addressText(false).optional(),
  /** The backend's Minecraft version; read from its status ping when unset. */
  version: z.string().min(1).optional(),
  /** How the backend learns who joined (see `ForwardingMode`). */
  forwarding: z.enum(["none", "bungeecord", "bungeeguard", "velocity"]).default("none"),
  /** The file holding the shared secret of `bungeeguard` and `velocity` (relative to the data directory). */
  forwardingSecretFile: z.string().min(1).optional(),
  /** Mojang authentication at the gateway. */
  onlineMode: z.boolean().default(false),
  /**
   * The backend's own folder (where its server.properties is), relative to the data directory or absolute: FTB
   * Quests files are read there (`config/ftbquests/quests/`, and the mod's progress in its world). Optional.
   */
  serverDir: z.string().min(1).optional(),
  /** The session server asked whether a player joined (online mode); Mojang's unless set. */
  sessionServer: z.url().optional(),
  /**
   * The backend's RCON (`enable-rcon=true`, loopback): with it the gateway gives rewards and counts kills. The
   * password is read from `passwordFile` (relative to this file's folder).
   */
  rcon: rconConfigSchema.optional(),
});

/** `config/system/gateway.json`: where the gateway listens and the server it stands in front of. */
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
export const GATEWAY_CONFIG: Codec<GatewayConfig> = codec(gatewayConfigSchema) as Codec<GatewayConfig>;
export const DEFAULT_GATEWAY_CONFIG: GatewayConfig = gatewayConfigSchema.parse({});

/** The backend's folder of a config, resolved against the data directory; undefined when unset. */
export const serverDirOf = (config: GatewayConfig, dataDir: string): string | undefined =>
  config.serverDir === undefined ? undefined : resolve(dataDir, config.serverDir);

/** The gateway's config file of a data directory. */
export const gatewayConfigPath = (dataDir: string): string =>
  join(dataDir, "config", "system", "gateway.json");

/** Reads (creating with defaults when missing) the gateway config; an invalid file is refused, never replaced. */
export const loadGatewayConfig = async (dataDir: string, logger: Logger): Promise<GatewayConfig> => {
  const instance = new ConfigInstance<GatewayConfig>({
    path: gatewayConfigPath(dataDir),
    codec: GATEWAY_CONFIG,
    defaults: DEFAULT_GATEWAY_CONFIG,
    logger,
    name: "gateway.json",
    onInvalid: "refuse",
  });
  await instance.reload();
  return instance.get();
};
