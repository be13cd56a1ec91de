import { systemClock } from "./game/context-types.js";
import { installShutdown } from "./host/flying-squid/shutdown.js";
import { startSystem } from "./host/flying-squid/start-system.js";
import { consoleLogger } from "./util/logger.js";

/**
 * `npm start` / `system serve`: the embedded flying-squid world with System inside. Flags: `--port N`,
 * `--data-dir DIR` (default `run`). No model is needed; configure one in `<dataDir>/config/system/model.json`
 * or with `SYSTEM_MODEL_BASE_URL`, `SYSTEM_MODEL` and `SYSTEM_MODEL_API_KEY`.
 */
export const startServer = async (argv: readonly string[]): Promise<void> => {
  const system = await startSystem({
    argv,
    environment: process.env,
    logger: consoleLogger,
    clock: systemClock(),
  });
  installShutdown({ close: () => system.host.close(), flush: () => system.close() }, consoleLogger);
};

const isMain = process.argv[1] !== undefined && /main\.ts$/.test(process.argv[1]);
if (isMain)
  startServer(process.argv.slice(2)).catch((error: unknown) => {
    consoleLogger.error(`System failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
