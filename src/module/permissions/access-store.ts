import { z } from "zod";
import { AgentException } from "../../agent/agent-exception.js";
import { customFailure, type Failure } from "../../agent/failure.js";
import { codec } from "../../util/codec.js";
import { ConfigInstance } from "../../util/config-instance.js";
import { CorruptFileError } from "../../util/corrupt-file-error.js";
import type { Logger } from "../../util/logger.js";
import { EXECUTION_MODES, type ExecutionMode } from "./execution-mode.js";

/** One player's admin-set access: AI on/off, per-feature grants, a mode override. */
export interface PlayerAccess {
  readonly ai?: boolean;
  /** Feature id → granted (true) or denied (false); absent features follow their default. */
  readonly features?: Readonly<Record<string, boolean>>;
  /** The mode an admin set for this player: it wins over the player's own choice and the default. */
  readonly mode?: ExecutionMode;
  /** The mode the player chose (`/system mode <mode>`); in force while the server allows it. */
  readonly chosenMode?: ExecutionMode;
}

/** `config/system/access.json`: who may use AI and which features, set by admins in game. */
export interface AccessSettings {
  /** Whether players have AI access without a grant. */
  readonly aiByDefault: boolean;
  readonly defaultMode: ExecutionMode;
  /** The modes players may choose for themselves (`/system mode allow …`). */
  readonly allowedModes: readonly ExecutionMode[];
  readonly players: Readonly<Record<string, PlayerAccess>>;
}

const MODE = z.enum(EXECUTION_MODES);

export const ACCESS_CODEC = codec<AccessSettings>(
  z.object({
    aiByDefault: z.boolean().default(true),
    defaultMode: MODE.default("routing"),
    allowedModes: z
      .array(MODE)
      .min(1)
      .max(4)
      .default([...EXECUTION_MODES]),
    players: z
      .record(
        z.string().max(64),
        z.object({
          ai: z.boolean().optional(),
          features: z.record(z.string(), z.boolean()).optional(),
          mode: MODE.optional(),
          chosenMode: MODE.optional(),
        }),
      )
      .default({}),
  }) as z.ZodType<AccessSettings>,
);

export const DEFAULT_ACCESS: AccessSettings = {
  aiByDefault: true,
  defaultMode: "routing",
  allowedModes: [...EXECUTION_MODES],
  players: {},
};

/** A change refused because access.json on disk is invalid (the admin sees the file to fix). */
export const accessFileInvalid = (path: string): Failure =>
  customFailure("ACCESS_FILE_INVALID", "system.access.file_invalid", path);

/**
 * The access file; writes are atomic and applied to new requests. It holds admin decisions (denied features),
 * so an invalid file is never replaced by defaults: the first load throws naming file and field, a reload keeps
 * the last good settings, and changes are refused (ACCESS_FILE_INVALID) until the file is fixed and reloaded.
 */
export class AccessStore extends ConfigInstance<AccessSettings> {
  constructor(path: string | undefined, logger: Logger) {
    super({
      path,
      codec: ACCESS_CODEC,
      defaults: DEFAULT_ACCESS,
      logger,
      name: "access.json",
      onInvalid: "refuse",
    });
  }

  override set(next: AccessSettings): Promise<void> {
    return translated(super.set(next));
  }

  override modify(change: (current: AccessSettings) => AccessSettings): Promise<void> {
    return translated(super.modify(change));
  }

  player(playerId: string): PlayerAccess {
    return this.get().players[playerId] ?? {};
  }

  /** Replaces one player's entry (undefined removes it). */
  async update(playerId: string, change: (current: PlayerAccess) => PlayerAccess | undefined): Promise<void> {
    await this.modify((settings) => {
      const next = change(settings.players[playerId] ?? {});
      const players = { ...settings.players };
      if (next === undefined) delete players[playerId];
      else players[playerId] = next;
      return { ...settings, players };
    });
  }
}

/** A refused write of the access file, as a translated failure the player or admin can read. */
async function translated(write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if (error instanceof CorruptFileError)
      throw new AgentException(accessFileInvalid(error.path), { cause: error });
    throw error;
  }
}
