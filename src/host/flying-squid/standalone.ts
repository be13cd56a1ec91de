import { fileURLToPath } from "node:url";
import { Languages } from "../../util/language.js";
import { consoleLogger } from "../../util/logger.js";
import { demoHandler } from "./demo-handler.js";
import { serve } from "./serve.js";

/**
 * Runs the game server with the demo handler only (no assistant): `tsx src/host/flying-squid/standalone.ts
 * [--port N] [--data-dir DIR]`. The flush step prints `flushed` so a supervisor can see a clean shutdown.
 */
serve({
  argv: process.argv.slice(2),
  logger: consoleLogger,
  handler: () =>
    demoHandler(Languages.load(fileURLToPath(new URL("../../../resources", import.meta.url))), (line) =>
      consoleLogger.info(line),
    ),
  flush: async () => {
    process.stdout.write("flushed\n");
  },
}).catch((error: unknown) => {
  consoleLogger.error("the game server failed to start", error);
  process.exit(1);
});
