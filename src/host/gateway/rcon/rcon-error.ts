/**
 * Why an RCON request failed. `sent` says whether the command reached the backend: when it did, the command
 * may have run (a give may be in the inventory), so its outcome is unknown and it must not be sent again blindly.
 */
export type RconFailureKind =
  /** The command is longer than vanilla's single read, holds a NUL, or is empty: never sent. */
  | "command_rejected"
  /** The backend refused the password. */
  | "login_refused"
  /** No connection could be made (or logged in) before the deadline. */
  | "unavailable"
  /** The connection closed or broke while the command was on its way or being answered. */
  | "connection_lost"
  /** No complete reply before the deadline (the connection is then closed). */
  | "timeout"
  /** The peer sent something that is not RCON. */
  | "protocol"
  /** The client was closed. */
  | "closed"
  /** The caller gave up (its signal aborted) before the command was sent. */
  | "cancelled"
  /** The backend answered with a text no reply template matches: the command's outcome is unknown. */
  | "unrecognized_reply";

/** A failed RCON request; never thrown for a reply the server gave (that is the reply parser's business). */
export class RconError extends Error {
  override readonly name = "RconError";
  constructor(
    readonly kind: RconFailureKind,
    message: string,
    /** Whether the request was written to the backend (so it may have run). */
    readonly sent: boolean,
    /** The command, when the failure concerns one. */
    readonly command?: string,
    /** The reply, for `unrecognized_reply`. */
    readonly reply?: string,
  ) {
    super(message);
  }

  /** A later attempt can succeed (the backend restarting, a slow reply); a refused password or command cannot. */
  get isRetryable(): boolean {
    return this.kind === "unavailable" || this.kind === "connection_lost" || this.kind === "timeout";
  }
}
