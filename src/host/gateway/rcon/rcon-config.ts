import { readFile, stat } from "node:fs/promises";
import { isIP } from "node:net";
import { resolve } from "node:path";
import { z } from "zod";
import type { Logger } from "../../../util/logger.js";
import { invalid, type Validation, valid } from "../../../util/validation.js";
import { bodyBytes, MAX_BODY_BYTES } from "./rcon-packet.js";

/** Vanilla's `rcon.port` default. */
export const DEFAULT_RCON_PORT = 25575;

/**
 * How often System asks the backend for a `save-all` while effects wait for one (an effect is done only once a
 * save that began after it has finished); one save covers every effect that completed before it began.
 */
export const DEFAULT_SAVE_INTERVAL_SECONDS = 2;

/**
 * The `rcon` block of `gateway.json`: where the backend's RCON listens and the file holding its password (never
 * the password itself). A relative `passwordFile` is read from the data folder (`--data-dir`, default `run`).
 */
export const rconConfigSchema = z.object({
  host: z.string().min(1).default("127.0.0.1"),
  port: z.number().int().min(1).max(65535).default(DEFAULT_RCON_PORT),
  passwordFile: z.string().min(1),
  /** At most one `save-all` per this many seconds while effects wait for one (0: at once). */
  saveIntervalSeconds: z.number().min(0).max(3600).default(DEFAULT_SAVE_INTERVAL_SECONDS),
});

export type RconConfig = z.infer<typeof rconConfigSchema>;

/** What the client needs, the password read. */
export interface RconSettings {
  readonly host: string;
  readonly port: number;
  readonly password: string;
  /** The absolute path it was read from, for messages. */
  readonly passwordFile: string;
}

/** Parses `HOST:PORT` (`[::1]:25575` for IPv6) of `--rcon`. */
export const parseRconAddress = (text: string): Validation<{ host: string; port: number }> => {
  const match = /^(?:\[([^\]]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(text.trim());
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (host === undefined || !Number.isInteger(port) || port < 1 || port > 65535)
    return invalid(`--rcon expects HOST:PORT, got ${JSON.stringify(text)}`);
  return valid({ host, port });
};

/**
 * Merges the CLI flags `--rcon HOST:PORT` and `--rcon-password-file FILE` over the file's `rcon` block (flags
 * win). Undefined when neither names an RCON endpoint; an error when an address has no password file.
 */
export const mergeRconFlags = (
  fromFile: RconConfig | undefined,
  flags: { readonly rcon?: string | undefined; readonly rconPasswordFile?: string | undefined },
): Validation<RconConfig | undefined> => {
  let address: { host: string; port: number } | undefined;
  if (flags.rcon !== undefined) {
    const parsed = parseRconAddress(flags.rcon);
    if (!parsed.success) return parsed;
    address = parsed.value;
  }
  const passwordFile = flags.rconPasswordFile ?? fromFile?.passwordFile;
  if (address === undefined && fromFile === undefined && flags.rconPasswordFile === undefined)
    return valid(undefined);
  if (passwordFile === undefined || passwordFile === "")
    return invalid("--rcon needs --rcon-password-file FILE (or rcon.passwordFile in gateway.json)");
  return valid({
    host: address?.host ?? fromFile?.host ?? "127.0.0.1",
    port: address?.port ?? fromFile?.port ?? DEFAULT_RCON_PORT,
    passwordFile,
    saveIntervalSeconds: fromFile?.saveIntervalSeconds ?? DEFAULT_SAVE_INTERVAL_SECONDS,
  });
};

/** Whether a host names this machine only (`localhost`, 127.0.0.0/8, `::1`). */
export const isLoopbackHost = (host: string): boolean => {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare === "::1") return true;
  const v4 = bare.startsWith("::ffff:") ? bare.slice("::ffff:".length) : bare;
  return isIP(v4) === 4 && v4.startsWith("127.");
};

/**
 * Reads the password file (one line; a trailing newline is not part of the password) and checks what vanilla
 * would refuse: an empty password disables RCON, a longer one does not fit a request. Warns loudly when the host
 * is not loopback (RCON is plain text: the password and every command cross the network readable), and when the
 * password file can be read by other users.
 */
export const loadRconSettings = async (options: {
  readonly config: Pick<RconConfig, "host" | "port" | "passwordFile">;
  /** Where a relative `passwordFile` is found: the data folder, as every relative path of the gateway. */
  readonly baseDir: string;
  readonly logger: Logger;
}): Promise<Validation<RconSettings>> => {
  const { config, logger } = options;
  const passwordFile = resolve(options.baseDir, config.passwordFile);
  let text: string;
  try {
    text = await readFile(passwordFile, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    return invalid(
      `cannot read the RCON password file ${passwordFile} (${code}; a relative path is read from the data folder ${options.baseDir})`,
    );
  }
  const password = text.replace(/\r?\n$/, "");
  if (password === "")
    return invalid(`the RCON password file ${passwordFile} is empty (vanilla refuses an empty password)`);
  if (password.includes("\n") || password.includes("\0"))
    return invalid(`the RCON password file ${passwordFile} must hold one line`);
  if (bodyBytes(password) > MAX_BODY_BYTES)
    return invalid(`the RCON password in ${passwordFile} is longer than ${MAX_BODY_BYTES} bytes`);
  if (!isLoopbackHost(config.host))
    logger.warn(
      `RCON at ${config.host}:${config.port} is not on loopback: RCON is plain text, so its password and every ` +
        "command System sends cross the network readable by anyone on the path. Bind the backend's RCON to " +
        "127.0.0.1 and run System on the same machine.",
    );
  try {
    if (((await stat(passwordFile)).mode & 0o004) !== 0)
      logger.warn(
        `the RCON password file ${passwordFile} can be read by every user of this machine (chmod 600 it)`,
      );
  } catch {
    // it was just read; a stat failure changes nothing
  }
  return valid({ host: config.host, port: config.port, password, passwordFile });
};
