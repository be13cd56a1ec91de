import type { Failure } from "../../../agent/failure.js";
import { ContextType } from "../../../agent/module/context-type.js";
import type { Text } from "../../../agent/text.js";
import type { FeatureStatus } from "../../module-manager.js";
import type { ExecutionMode } from "../../permissions/execution-mode.js";
import type { RevokePreview } from "./revoke-card.js";

/** A player an admin command names: resolved from online players and players System has seen. */
export interface KnownPlayer {
  readonly uuid: string;
  readonly name: string;
}

/** What a revocation did to the player's work, so the reply can say it truthfully. */
export type RevokeOutcome =
  /** Another player: their running request was cancelled and their history deleted now. */
  | { readonly kind: "now" }
  /** The requester themselves: history and caches go once this reply is sent; nothing else was running. */
  | { readonly kind: "after_reply" };

/** One day of one player's model usage, for `/system usage`. */
export interface UsageLine {
  readonly day: string;
  readonly player: string;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** A player whose file was found damaged, as `/system restore` lists them: the newest copy kept and why. */
export interface DamagedFileLine {
  readonly player: string;
  readonly kept: string;
  readonly reason: string;
}

/** What `/system restore <player>` did. */
export type RestoreOutcome =
  /** No damaged file of the player is kept. */
  | { readonly kind: "none" }
  /** The player is online: a restore waits until they are offline. */
  | { readonly kind: "online" }
  /** The kept copy still does not read (not mended yet). */
  | { readonly kind: "damaged"; readonly copy: string; readonly reason: string }
  | { readonly kind: "restored"; readonly copy: string; readonly replaced: string | undefined };

/** A player's execution mode and where it comes from. */
export interface PlayerMode {
  readonly mode: ExecutionMode;
  /** admin: set for this player by an admin; player: their own choice; default: the server's default. */
  readonly source: "admin" | "player" | "default";
  readonly allowed: readonly ExecutionMode[];
}

/**
 * What the core commands do, implemented by the AssistantServer. Every method is an admin or player action the
 * command already authorised (the command nodes `requires` the op level; the module checks again).
 */
export interface CoreServices {
  resolvePlayer(name: string): KnownPlayer | undefined;
  /** Turns AI on/off for a player, or grants/denies one feature. Returns false for an unknown feature. */
  setAccess(
    player: KnownPlayer,
    change: { readonly ai?: boolean; readonly feature?: string; readonly enabled?: boolean },
  ): Promise<boolean>;
  /**
   * Revocation side effects: bump the memory generation, cancel running work, delete the player's file (or row) and
   * caches on every server of the storage (usage is kept). `requesterId` is the
   * admin asking: revoking oneself must not cancel the revoke request itself, so the player's own side effects
   * then run once that request has finished.
   */
  revoke(player: KnownPlayer, requesterId?: string): Promise<RevokeOutcome>;
  /** What revoking the player would delete (their file's entries and caches), read without changing anything. */
  revokePreview(player: KnownPlayer): Promise<RevokePreview>;
  /** Deletes the player's files and caches; usage statistics are kept. */
  reset(player: KnownPlayer): Promise<void>;
  usage(player: KnownPlayer | undefined): UsageLine[];
  /** Players whose file was found damaged and not restored yet. */
  damagedFiles(): DamagedFileLine[];
  /** Puts the newest kept (mended) copy of an offline player's file back; the file it replaces is kept aside. */
  restoreFile(player: KnownPlayer): Promise<RestoreOutcome>;
  /** Closes the notice of a player's damaged file (the copies stay on disk); false when none was open. */
  dismissDamaged(player: KnownPlayer): Promise<boolean>;
  /** Re-reads config files, prompts and data packs; returns what was reloaded (for the card). */
  reload(): Promise<Text>;
  /** An admin sets the server's default mode (no player) or one player's mode, over the player's own choice. */
  setMode(mode: ExecutionMode, player: KnownPlayer | undefined): Promise<void>;
  /** A player's mode now, who decided it, and the modes players may choose. */
  modeOf(playerId: string): PlayerMode;
  /** Records the mode a player chose for themselves (the module checked it is allowed). */
  chooseMode(playerId: string, mode: ExecutionMode): Promise<void>;
  /** An admin sets the modes players may choose. */
  allowModes(modes: readonly ExecutionMode[]): Promise<void>;
  /**
   * Whether a workflow is installed and its feature enabled for this player (`system:free_chat` decides whether
   * they can choose `full`).
   */
  canUseWorkflow(playerId: string, id: string): boolean;
  /**
   * Why this player could not call a model in `full` mode (their AI off, or no model configured on the server);
   * undefined when they could. `full` sends plain text to a model loop, so without one it is not chosen.
   */
  fullModeRefusal(playerId: string): Failure | undefined;
  /** The player's settings as they apply now (the defaults where they chose nothing). */
  preferences(playerId: string): Promise<{ history: boolean; external: boolean; speech: boolean }>;
  setPreference(playerId: string, key: "history" | "external" | "speech", value: boolean): Promise<void>;
  clearHistory(playerId: string): Promise<void>;
  /** Whether the player has a request running (or still stopping). */
  running(playerId: string): boolean;
  /** Cancels the player's running request; false when nothing was running. */
  cancel(playerId: string): boolean;
  /** Installed feature ids, to validate grant arguments and complete them. */
  features(): readonly string[];
  /** Every installed feature with its state, for `/system feature list`. */
  featureStatuses(): readonly FeatureStatus[];
  /**
   * Switches features on or off for the whole server (an id or `#tag`), persisted in features.json: permission
   * snapshots refresh at once and running requests of a feature switched off end.
   */
  switchFeature(reference: string, enabled: boolean): Promise<FeatureSwitchResult>;
}

/** What `/system feature enable|disable` did. */
export type FeatureSwitchResult =
  | { readonly kind: "unknown" }
  | { readonly kind: "infrastructure"; readonly id: string }
  | {
      readonly kind: "done";
      readonly changed: readonly string[];
      readonly unchanged: readonly string[];
      /** Requests that were running in a feature switched off and were ended. */
      readonly ended: number;
    };

export const CORE_SERVICES = ContextType.of<CoreServices>("system:core_services");

/** Operator level needed for admin commands. */
export const ADMIN_LEVEL = 2;

/** The `requires` of an admin command node: the source has the operator level. */
export const isAdmin = (source: { readonly permissionLevel: number }): boolean =>
  source.permissionLevel >= ADMIN_LEVEL;
