import { z } from "zod";
import { codec } from "../util/codec.js";
import { ConfigInstance } from "../util/config-instance.js";
import type { Logger } from "../util/logger.js";

/** `config/system/features.json`: the admin's server-wide on/off decisions, over the data packs' `enabled`. */
export interface FeatureSwitchSettings {
  /** Feature id → on (true) or off (false); absent features follow their data-pack entry. */
  readonly enabled: Readonly<Record<string, boolean>>;
}

const SWITCHES_CODEC = codec<FeatureSwitchSettings>(
  z.object({
    enabled: z.record(z.string().max(128), z.boolean()).default({}),
  }) as z.ZodType<FeatureSwitchSettings>,
);

/**
 * The features file, written by `/system feature enable|disable`. It holds admin decisions, so an invalid file
 * is never replaced by defaults: start fails naming it, a reload keeps the last good switches.
 */
export class FeatureSwitches extends ConfigInstance<FeatureSwitchSettings> {
  constructor(path: string | undefined, logger: Logger) {
    super({
      path,
      codec: SWITCHES_CODEC,
      defaults: { enabled: {} },
      logger,
      name: "features.json",
      onInvalid: "refuse",
    });
  }

  /** The admin's switch for one feature; undefined when the data pack decides. */
  of(id: string): boolean | undefined {
    return this.get().enabled[id];
  }

  async switch(id: string, enabled: boolean): Promise<void> {
    await this.modify((switches) => ({ enabled: { ...switches.enabled, [id]: enabled } }));
  }
}
