import { join } from "node:path";
import { AssistantServer } from "./assistant/assistant-server.js";
import { AssistantHostHandler } from "./host/flying-squid/assistant-handler.js";
import { serve } from "./host/flying-squid/serve.js";
import { worldFolderOf } from "./host/flying-squid/server-config.js";
import { consoleLogger } from "./util/logger.js";

/**
 * `npm start` / `system serve`: the embedded flying-squid world with System inside. Flags: `--port N`,
 * `--data-dir DIR` (default `run`). No model is needed; configure one in `<dataDir>/config/system/model.json`.
 */
export const startServer = async (argv: readonly string[]): Promise<void> => {
  const logger = consoleLogger;
  const handler = new AssistantHostHandler(logger);
  let assistant: AssistantServer | undefined;
  const host = await serve({
    argv,
    logger,
    shortcuts: ["reason", "question", "search"],
    handler: async (dataDir, config) => {
      assistant = await AssistantServer.create({
        paths: { dataDir, world: worldFolderOf(config, dataDir), packRoots: [join(dataDir, "datapacks")] },
        bridge: handler,
        logger,
      });
      handler.attach(assistant);
      return handler;
    },
    flush: async () => {
      await assistant?.close();
    },
  });
  handler.useHost(host);
};

const isMain = process.argv[1] !== undefined && /main\.ts$/.test(process.argv[1]);
if (isMain)
  startServer(process.argv.slice(2)).catch((error: unknown) => {
    consoleLogger.error("System failed to start", error);
    process.exit(1);
  });
