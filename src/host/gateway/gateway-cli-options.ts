import { invalid, type Validation, valid } from "../../util/validation.js";
import { DEFAULT_DATA_DIR } from "../shared/cli-options.js";
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
  /** `--rcon-password-file FILE`: the file holding its password (relative to the working folder). */
  readonly rconPasswordFile?: string;
}

export const GATEWAY_USAGE =
  "usage: system gateway --backend HOST:PORT [--port N] [--panel-port N] [--metrics-port N] [--data-dir DIR] [--rcon HOST:PORT --rcon-password-file FILE]";

const FLAGS = new Set([
  "--backend",
  "--port",
  "--panel-port",
  "--metrics-port",
  "--data-dir",
  "--rcon",
  "--rcon-password-file",
]);

/**
 * Parses `--backend HOST:PORT --port N --panel-port N --data-dir DIR --rcon HOST:PORT --rcon-password-file FILE`
 * (also `--flag=value`); unknown flags are errors.
 */
export const parseGatewayCliOptions = (argv: readonly string[]): Validation<GatewayCliOptions> => {
  let options: GatewayCliOptions = { dataDir: DEFAULT_DATA_DIR };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const [flag, inline] = argument.includes("=") ? argument.split("=", 2) : [argument, undefined];
    if (flag === undefined || !FLAGS.has(flag)) return invalid(`unknown option ${argument}`);
    const value = inline ?? argv[++index];
    if (value === undefined || value === "") return invalid(`${flag} needs a value`);
    if (flag === "--data-dir") options = { ...options, dataDir: value };
    else if (flag === "--rcon") options = { ...options, rcon: value };
    else if (flag === "--rcon-password-file") options = { ...options, rconPasswordFile: value };
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
