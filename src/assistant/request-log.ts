import type { AgentResult } from "../agent/agent-result.js";
import type { Failure } from "../agent/failure.js";

/** How much of a player's text the log keeps: enough to tell requests apart, never the whole message. */
export const LOGGED_TEXT_CHARACTERS = 16;

/** The start of a player's text for the log: at most LOGGED_TEXT_CHARACTERS characters, control characters out. */
export const loggedPrefix = (text: string): string => {
  const characters = [
    ...text
      .replace(/[\p{Cc}\p{Cf}]+/gu, " ")
      .trim()
      .replace(/^\/system\s+/iu, ""),
  ];
  const prefix = characters.slice(0, LOGGED_TEXT_CHARACTERS).join("");
  return JSON.stringify(characters.length > LOGGED_TEXT_CHARACTERS ? `${prefix}…` : prefix);
};

/** What a failure says beyond its code: its arguments (a model's status and cause), or why there is no model. */
export const failureCause = (failure: Failure): string | undefined => {
  if (failure.key === "system.error.model_not_configured") return "no model configured";
  return failure.args.length === 0 ? undefined : failure.args.join("; ");
};

/** A failure as the admin reads it: its code and what it says beyond it (`MODEL_UNAVAILABLE (503; …)`). */
export const failureText = (failure: Failure): string => {
  const cause = failureCause(failure);
  return cause === undefined ? failure.code : `${failure.code} (${cause})`;
};

/**
 * The one line logged for each request: who asked, the start of what they typed, how it was routed, what ran and
 * how it ended (`request 5d0c… Alex "what is in my inv…" semantic:direct → system:player_query: succeeded`).
 */
export const requestLogLine = (entry: {
  readonly requestId: string;
  readonly player: string;
  readonly text: string;
  readonly route: string;
  readonly workflow: string | undefined;
  readonly result: AgentResult;
}): string => {
  const { result } = entry;
  const outcome =
    result.failure === undefined ? result.status : `${result.status} ${failureText(result.failure)}`;
  return `request ${entry.requestId} ${entry.player} ${loggedPrefix(entry.text)} ${entry.route} → ${entry.workflow ?? "none"}: ${outcome}`;
};
