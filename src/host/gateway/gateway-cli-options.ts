import { invalid, type Validation, valid } from "../../util/validation.js";
import { DEFAULT_DATA_DIR, missingValue } from "../shared/cli-options.js";
import { type Address, parseAddress } from "./gateway-config.js";

/** Flags of `system gateway`; each overrides `config/system/gateway.json`. */
export interface GatewayCliOptions {
  readonly dataDir: string;
  readonly backend?: Address;
  /** Overrides the port of `listen`. */
  readonly port?: number;
  /** The web panel's port (0: any free port), instead of `port` in `config/system/panel.json`. */
  readonly panelPort?: number;
  /** `--metrics-port N`: `/metrics` alone on this port too (docs/telemetry.md). */
  readonly metricsPort?: number;
  /** `--rcon HOST:PORT`: the backend's RCON, over `rcon` in gateway.json (checked when merged with the file). */
  readonly rcon?: string;
  /** `--rcon-password-file FILE`: the file holding its password (a relative path is in the data folder). */
  readonly rconPasswordFile?: string;
  /** `--server-dir DIR`: the backend's own folder (mods, quests), over `serverDir` in gateway.json. */
  readonly serverDir?: string;
  /** `--help` / `-h`: print `GATEWAY_USAGE` and start nothing. */
  readonly help?: true;
}

export const GATEWAY_USAGE =
  "usage: system gateway --backend HOST:PORT [--port N] [--panel-port N] [--metrics-port N] [--data-dir DIR] [--rcon HOST:PORT --rcon-password-file FILE] [--server-dir DIR]";

const FLAGS = new Set([
  "--backend",
  "--port",
  "--panel-port",
  "--metrics-port",
  "--data-dir",
  "--rcon",
  "--rcon-password-file",
  "--server-dir",
]);

/**
 * Parses `--backend HOST:PORT --port N --panel-port N --data-dir DIR --rcon HOST:PORT --rcon-password-file FILE
 * --server-dir DIR` (also `--flag=value`) and `--help`/`-h`; unknown flags are errors.
 */
export const parseGatewayCliOptions = (argv: readonly string[]): Validation<GatewayCliOptions> => {
  let options: GatewayCliOptions = { dataDir: DEFAULT_DATA_DIR };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--help" || argument === "-h") return valid({ ...options, help: true });
    const [flag, inline] = argument.includes("=") ? argument.split("=", 2) : [argument, undefined];
    if (flag === undefined || !FLAGS.has(flag)) return invalid(`unknown option ${argument}`);
    const value = inline ?? argv[++index];
    const missing = missingValue(flag, value);
    if (missing !== undefined || value === undefined) return invalid(missing ?? `${flag} needs a value`);
    if (flag === "--data-dir") options = { ...options, dataDir: value };
    else if (flag === "--rcon") options = { ...options, rcon: value };
    else if (flag === "--rcon-password-file") options = { ...options, rconPasswordFile: value };
    else if (flag === "--server-dir") options = { ...options, serverDir: value };
    else if (flag === "--backend") {
      const address = parseAddress(value);
      if (!address.success) return invalid(`--backend ${address.error}`);
      options = { ...options, backend: address.value };
    } else {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        return invalid(`${flag} must be 0–65535, got ${value}`);
      if (flag === "--port") options = { ...options, port };
      else if (flag === "--metrics-port") options = { ...options, metricsPort: port };
      else options = { ...options, panelPort: port };
    }
  }
  return valid(options);
};
