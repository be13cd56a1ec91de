import { AgentFailure } from "../../../agent/agent-failure.js";
import type { Failure } from "../../../agent/failure.js";
import { ContextType } from "../../../agent/module/context-type.js";

/**
 * A player's live switches as the question and reasoning workflows need them; the server assembly implements
 * it over the permission service (AI, features) and the conversation preferences (external services).
 */
export interface PlayerSwitches {
  /** Whether the player may use AI now (admin permission). */
  aiEnabled(playerId: string): boolean;
  /** Whether the player allows external services (model providers, the web) now. */
  externalAllowed(playerId: string): boolean | Promise<boolean>;
  /** Whether an installed feature is enabled for the player now. */
  featureEnabled(playerId: string, featureId: string): boolean;
}

export const PLAYER_SWITCHES = ContextType.of<PlayerSwitches>("system:player_switches");

/**
 * The player turned external services (model providers, the web) off: no model call is made for them, and a
 * request already running stops before its next one. Refused like AI turned off (AI_DISABLED), with its own text.
 */
export const EXTERNAL_SERVICES_OFF: Failure = {
  code: AgentFailure.AI_DISABLED.code,
  key: "system.error.external_off",
  args: [],
};
