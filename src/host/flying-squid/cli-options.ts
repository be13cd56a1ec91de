import { invalid, type Validation, valid } from "../../util/validation.js";

/** Flags of `npm start` / `system serve`; each overrides `config/system/server.json`. */
export interface CliOptions {
  readonly dataDir: string;
  readonly port?: number;
}

/** The default data directory: config under `run/config/system/`, world under `run/world`. */
export const DEFAULT_DATA_DIR = "run";

/** Parses `--port N --data-dir DIR` (also `--port=N`); unknown flags are an error so typos are not ignored. */
export const parseCliOptions = (argv: readonly string[]): Validation<CliOptions> => {
  let dataDir = DEFAULT_DATA_DIR;
  let port: number | undefined;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const [flag, inline] = argument.includes("=") ? argument.split("=", 2) : [argument, undefined];
    if (flag !== "--port" && flag !== "--data-dir") return invalid(`unknown option ${argument}`);
    const value = inline ?? argv[++index];
    if (value === undefined || value === "") return invalid(`${flag} needs a value`);
    if (flag === "--data-dir") {
      dataDir = value;
      continue;
    }
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535)
      return invalid(`--port must be 0–65535, got ${value}`);
    port = parsed;
  }
  return valid(port === undefined ? { dataDir } : { dataDir, port });
};
