import { z } from "zod";
import { DataStorage, ModuleStorage } from "../agent/storage/module-storage.js";
import { codec } from "../util/codec.js";
import { Identifier } from "../util/identifier.js";

const totalSchema = z.object({
  /** Time online counted so far, over every session (ms). */
  millis: z.number().int().nonnegative(),
});

type PlaytimeData = z.infer<typeof totalSchema>;

/** A player's time online over every session, kept in their player file (the `total` of playtime events). */
export class PlaytimeTotal extends DataStorage<PlaytimeData> {
  #millis: number;

  constructor(data?: PlaytimeData) {
    super();
    this.#millis = data?.millis ?? 0;
  }

  /** Whole minutes online over every session. */
  get minutes(): number {
    return Math.floor(this.#millis / 60_000);
  }

  /** Counts time online (ms); nothing for none. */
  add(millis: number): void {
    if (millis <= 0) return;
    this.#millis += Math.round(millis);
    this.markDirty();
  }

  toData(): PlaytimeData {
    return { millis: this.#millis };
  }
}

/** The playtime total's storage, owned by the assistant (not a feature: the host reports playtime). */
export const playtimeStorage: ModuleStorage<PlaytimeData, PlaytimeTotal> = ModuleStorage.of({
  owner: Identifier.parse("system:assistant"),
  type: "playtime",
  codecId: Identifier.parse("system:playtime_v1"),
  codec: codec(totalSchema),
  factory: (data) => new PlaytimeTotal(data),
});
