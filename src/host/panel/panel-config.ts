import { join } from "node:path";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { ConfigInstance } from "../../util/config-instance.js";
import type { Logger } from "../../util/logger.js";

export interface PanelConfig {
  /** Serve the panel at all. */
  readonly enabled: boolean;
  /** 127.0.0.1 by default: reachable from this machine only. */
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
}

const PANEL_CONFIG = codec<PanelConfig>(
  z.object({
    enabled: z.boolean().default(true),
    host: z.string().min(1).max(253).default("127.0.0.1"),
    port: z.number().int().min(0).max(65_535).default(8765),
  }) as unknown as z.ZodType<PanelConfig>,
);

export const DEFAULT_PANEL_CONFIG: PanelConfig = { enabled: true, host: "127.0.0.1", port: 8765 };

/** `config/system/panel.json` (written with the defaults when missing; a broken file stops the start naming it). */
export const loadPanelConfig = async (dataDir: string, logger: Logger): Promise<PanelConfig> => {
  const config = new ConfigInstance<PanelConfig>({
    path: join(dataDir, "config", "system", "panel.json"),
    codec: PANEL_CONFIG,
    defaults: DEFAULT_PANEL_CONFIG,
    logger,
    name: "panel.json",
    onInvalid: "refuse",
  });
  await config.reload();
  return config.get();
};
