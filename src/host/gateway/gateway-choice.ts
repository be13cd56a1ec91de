import { existsSync } from "node:fs";
import { DEFAULT_DATA_DIR, parseCliOptions } from "../shared/cli-options.js";
import { parseGatewayCliOptions } from "./gateway-cli-options.js";
import { gatewayConfigPath } from "./gateway-config.js";

/**
 * Whether `npm start` runs the gateway rather than the embedded world: `--backend` is given, or the data directory
 * (`--data-dir`, default `run`) holds `config/system/gateway.json`. Anything else keeps the zero-setup default.
 */
export const runsGateway = (argv: readonly string[]): boolean =>
  argv.some((argument) => argument === "--backend" || argument.startsWith("--backend=")) ||
  gatewayFileOf(argv) !== undefined;

/**
 * The gateway.json that makes `npm start` run the gateway without `--backend` (the data folder once held a
 * gateway); undefined when there is none.
 */
export const gatewayFileOf = (argv: readonly string[]): string | undefined => {
  const gateway = parseGatewayCliOptions(argv);
  const embedded = parseCliOptions(argv);
  const dataDir = gateway.success
    ? gateway.value.dataDir
    : embedded.success
      ? embedded.value.dataDir
      : DEFAULT_DATA_DIR;
  const path = gatewayConfigPath(dataDir);
  return existsSync(path) ? path : undefined;
};
