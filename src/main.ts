import { join } from "node:path";
import { AgentConfig } from "./agent/execution/agent-config.js";
import { AgentEngine } from "./agent/execution/agent-engine.js";
import { consoleLogger } from "./util/logger.js";

/** Starts System with the embedded defaults and reports what it registered. */
const main = async (): Promise<void> => {
  const dataDir = process.env.SYSTEM_DATA_DIR ?? "run";
  const config = new AgentConfig(join(dataDir, "config", "system", "system-agent.json"), consoleLogger);
  await config.reload();
  const engine = new AgentEngine({ config, logger: consoleLogger });
  engine.start();
  const modules = engine.modules().values();
  consoleLogger.info(`engine started: ${modules.length} workflows, ${engine.tools.values().length} tools`);
  for (const module of modules) consoleLogger.info(`  workflow ${module.id}: ${module.description}`);
};

main().catch((error: unknown) => {
  consoleLogger.error("System failed to start", error);
  process.exitCode = 1;
});
