import { systemClock } from "./game/context-types.js";
import { gatewayFileOf, runsGateway } from "./host/gateway/gateway-choice.js";
import { parseCliOptions, SERVE_USAGE } from "./host/shared/cli-options.js";
import { tuneGarbageCollector } from "./host/shared/gc-tuning.js";
import { installShutdown } from "./host/shared/shutdown.js";
import { consoleLogger } from "./util/logger.js";

type StartSystem = typeof import("./host/flying-squid/start-system.js")["startSystem"];

/** What the embedded start is made of (tests pass their own). */
export interface StartParts {
  readonly tune: () => unknown;
  readonly startSystem: StartSystem;
  readonly installShutdown: typeof installShutdown;
}

const START_PARTS: StartParts = {
  tune: () => tuneGarbageCollector(),
  // imported when it starts: `--help` needs none of the server
  startSystem: async (options) => (await import("./host/flying-squid/start-system.js")).startSystem(options),
  installShutdown,
};

/**
 * `npm start` / `system serve`: the embedded flying-squid world with System inside. Flags: `--port N`,
 * `--panel-port N`, `--data-dir DIR` (default `run`); `--help` prints the usage and starts nothing. With
 * `--backend HOST:PORT`, or when `<dataDir>/config/system/gateway.json` exists, it runs the gateway in front of
 * that server instead (as `system gateway`; its flags override the file); a start error is then one line on
 * stderr and exit code 1. No model is needed; configure one in `<dataDir>/config/system/model.json`
 * or with `SYSTEM_MODEL_BASE_URL`, `SYSTEM_MODEL` and `SYSTEM_MODEL_API_KEY`.
 */
export const startServer = async (
  argv: readonly string[],
  out: { write(text: string): unknown } = process.stdout,
  err: { write(text: string): unknown } = process.stderr,
  parts: StartParts = START_PARTS,
): Promise<void> => {
  const options = parseCliOptions(argv);
  if (options.success && options.value.help === true) {
    out.write(
      `${SERVE_USAGE}\nin front of your own server: npm start -- --backend HOST:PORT [--port N] [--data-dir DIR] (or config/system/gateway.json)\n`,
    );
    return;
  }
  // a full collection at 1.5× the live heap, not V8's up to 4× (docs/admin.md, "Memory")
  parts.tune();
  if (runsGateway(argv)) {
    const file = argv.some((argument) => argument.startsWith("--backend")) ? undefined : gatewayFileOf(argv);
    if (file !== undefined)
      consoleLogger.info(
        `${file} found: running the gateway in front of your server (move that file away to start the embedded world)`,
      );
    const { runGateway } = await import("./host/gateway/start-gateway.js");
    const code = await runGateway(argv, err, out);
    if (code !== 0) process.exitCode = code;
    return;
  }
  const started = parts.startSystem({
    argv,
    environment: process.env,
    logger: consoleLogger,
    clock: systemClock(),
  });
  // Installed before the start: once `listening on` is printed a stop signal must never find the process
  // without a handler (the default action kills it at once, unflushed). A signal during the start waits for it;
  // a start that fails is reported below, not again as a failed shutdown step.
  const ready = started.then(
    (system) => system,
    () => undefined,
  );
  parts.installShutdown(
    {
      close: async () => (await ready)?.host.close(),
      flush: async () => (await ready)?.close(),
    },
    consoleLogger,
  );
  await started;
};

const isMain = process.argv[1] !== undefined && /main\.ts$/.test(process.argv[1]);
if (isMain)
  startServer(process.argv.slice(2)).catch((error: unknown) => {
    // one line, what happened and what to do (a start error carries no stack trace worth reading)
    process.stderr.write(
      `[System] ERROR System failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
