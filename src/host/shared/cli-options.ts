import { invalid, type Validation, valid } from "../../util/validation.js";

/** Flags of `npm start` / `system serve`; each overrides `config/system/server.json` or `panel.json`. */
export interface CliOptions {
  readonly dataDir: string;
  readonly port?: number;
  /** `--panel-port N`: the web panel's port instead of `panel.json`'s (0: any free port). */
  readonly panelPort?: number;
  /** `--server-dir DIR`: a modpack server's folder whose mods, datapacks and KubeJS System reads for items. */
  readonly serverDir?: string;
  /** `--metrics-port N`: serve `/metrics` alone on this port too (see docs/telemetry.md). */
  readonly metricsPort?: number;
  /** `--help` / `-h`: print `SERVE_USAGE` and start nothing. */
  readonly help?: true;
}

/** The default data directory: config under `run/config/system/`, world under `run/world`. */
export const DEFAULT_DATA_DIR = "run";

/** The usage line of `npm start -- …` / `system serve …`, printed with a refused flag and by `--help`. */
export const SERVE_USAGE =
  "usage: system serve [--port N] [--panel-port N] [--metrics-port N] [--data-dir DIR] [--server-dir DIR]";

const PORT_FLAGS = ["--port", "--panel-port", "--metrics-port"] as const;
type PortFlag = (typeof PORT_FLAGS)[number];
const isPortFlag = (flag: string): flag is PortFlag => (PORT_FLAGS as readonly string[]).includes(flag);

/**
 * Why a flag has no value: none follows it, or the next word is another option (`--port --data-dir X`); undefined
 * when it has one.
 */
export const missingValue = (flag: string, value: string | undefined): string | undefined => {
  if (value === undefined || value === "") return `${flag} needs a value`;
  if (value.startsWith("--")) return `${flag} needs a value before ${value}`;
  return undefined;
};

/**
 * Parses `--port N --panel-port N --data-dir DIR --server-dir DIR` (also `--flag=value`) and `--help`/`-h`; unknown flags are an
 * error so typos are not ignored.
 */
export const parseCliOptions = (argv: readonly string[]): Validation<CliOptions> => {
  let dataDir = DEFAULT_DATA_DIR;
  let serverDir: string | undefined;
  const ports: Partial<Record<PortFlag, number>> = {};
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--help" || argument === "-h") return valid({ dataDir, help: true });
    const [flag, inline] = argument.includes("=") ? argument.split("=", 2) : [argument, undefined];
    if (flag !== "--data-dir" && flag !== "--server-dir" && !isPortFlag(flag!))
      return invalid(`unknown option ${argument}`);
    const value = inline ?? argv[++index];
    const missing = missingValue(flag!, value);
    if (missing !== undefined || value === undefined) return invalid(missing ?? `${flag} needs a value`);
    if (flag === "--data-dir") {
      dataDir = value;
      continue;
    }
    if (flag === "--server-dir") {
      serverDir = value;
      continue;
    }
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535)
      return invalid(`${flag} must be 0–65535, got ${value}`);
    ports[flag as PortFlag] = parsed;
  }
  return valid({
    dataDir,
    ...(serverDir === undefined ? {} : { serverDir }),
    ...(ports["--port"] === undefined ? {} : { port: ports["--port"] }),
    ...(ports["--panel-port"] === undefined ? {} : { panelPort: ports["--panel-port"] }),
    ...(ports["--metrics-port"] === undefined ? {} : { metricsPort: ports["--metrics-port"] }),
  });
};
