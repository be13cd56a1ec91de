import { join } from "node:path";
import type { AssistantServer } from "../../assistant/assistant-server.js";
import { BUILTIN_PACK_ROOT } from "../../data/prompts/prompt-store.js";
import type { Logger } from "../../util/logger.js";
import type { HostTelemetry } from "../shared/telemetry/host-telemetry.js";
import { BindingCodes } from "./binding-codes.js";
import { loadPanelConfig } from "./panel-config.js";
import { PanelServer } from "./panel-server.js";
import { PanelSessions } from "./panel-sessions.js";

/**
 * Opens the web panel when `panel.json` enables it, on `--panel-port` when given; both hosts (the embedded world
 * and the gateway) open it the same way. A taken port is logged in one line and the server runs without the
 * panel: it never moves to another port by itself, since players' bookmarks and an admin's proxy or firewall
 * name the configured one.
 */
export const openPanel = async (options: {
  readonly dataDir: string;
  /** The world folder: the panel's sessions live in `<world>/system/panel-sessions.json`. */
  readonly world: string;
  readonly panelPort: number | undefined;
  readonly now: () => number;
  readonly logger: Logger;
  /** Serves `/metrics` on the panel too. */
  readonly telemetry?: HostTelemetry;
}): Promise<PanelServer | undefined> => {
  const { logger, now } = options;
  const loaded = await loadPanelConfig(options.dataDir, logger);
  if (!loaded.enabled) {
    if (options.panelPort !== undefined)
      logger.info("--panel-port ignored: the web panel is off (enabled: false in panel.json)");
    return undefined;
  }
  const config = options.panelPort === undefined ? loaded : { ...loaded, port: options.panelPort };
  const sessions = new PanelSessions(join(options.world, "system", "panel-sessions.json"), now, logger);
  await sessions.load();
  try {
    return await PanelServer.open({
      config,
      codes: new BindingCodes({ now }),
      sessions,
      resources: BUILTIN_PACK_ROOT,
      logger,
      ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
    });
  } catch (error) {
    logger.warn(panelNotStarted(config, error));
    return undefined;
  }
};

/**
 * Serves the assembled assistant on an opened panel: an admin's revoke or reset ends the player's bound panels at
 * once, and the address players bind to is announced (`panel on …`).
 */
export const servePanel = (
  panel: PanelServer,
  assistant: AssistantServer,
  announce: (line: string) => void,
): void => {
  panel.serve(assistant);
  assistant.infrastructure.lifecycles.register({
    onReset: (playerId) => panel.invalidate(playerId),
    onRevoke: (playerId) => panel.unbind(playerId).then(() => {}),
  });
  announce(`panel on ${panel.url}`);
};

/** The one line an admin reads when the panel could not listen: what happened and what to do. */
export const panelNotStarted = (config: { host: string; port: number }, error: unknown): string => {
  const address = `${config.host}:${config.port}`;
  if ((error as { code?: unknown }).code === "EADDRINUSE")
    return `web panel not started: ${address} is already in use (another server?); start with --panel-port N (0: any free port) or set "port" in config/system/panel.json`;
  return `web panel not started on ${address}: ${error instanceof Error ? error.message : String(error)}`;
};
