import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { ConfigInstance } from "../../util/config-instance.js";
import type { Logger } from "../../util/logger.js";

const SESSIONS = codec(
  z.object({
    sessions: z.record(
      z.string().regex(/^[0-9a-f]{64}$/u),
      z.object({ player: z.string().max(64), expires: z.number() }),
    ),
  }),
);

/** How long a bound browser stays bound without binding again. */
export const SESSION_MILLIS = 30 * 24 * 60 * 60_000;

const hashOf = (token: string): string => createHash("sha256").update(token).digest("hex");

/**
 * Panel sessions: a random 256-bit token lives only in the browser's cookie; the server keeps its SHA-256 with the
 * player and the expiry in `<world>/system/panel-sessions.json` (atomic writes), so a stolen file binds nobody and
 * a restart keeps browsers bound.
 */
export class PanelSessions {
  readonly #file: ConfigInstance<z.infer<typeof SESSIONS.schema>>;

  constructor(
    path: string | undefined,
    private readonly now: () => number,
    logger: Logger,
  ) {
    this.#file = new ConfigInstance({
      path,
      codec: SESSIONS,
      defaults: { sessions: {} },
      logger,
      name: "panel-sessions.json",
    });
  }

  async load(): Promise<void> {
    await this.#file.reload();
  }

  /** A new session of `playerId`; returns the token for the cookie (never stored). */
  async create(playerId: string): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    const now = this.now();
    await this.#file.modify((file) => ({
      sessions: {
        ...Object.fromEntries(Object.entries(file.sessions).filter(([, session]) => session.expires > now)),
        [hashOf(token)]: { player: playerId, expires: now + SESSION_MILLIS },
      },
    }));
    return token;
  }

  /** The player a token is bound to, while it has not expired. */
  playerOf(token: string | undefined): string | undefined {
    if (token === undefined || token.length === 0 || token.length > 128) return undefined;
    const session = this.#file.get().sessions[hashOf(token)];
    return session !== undefined && session.expires > this.now() ? session.player : undefined;
  }

  /** Ends one browser's session. */
  async end(token: string): Promise<void> {
    const hash = hashOf(token);
    await this.#file.modify((file) => {
      const sessions = { ...file.sessions };
      delete sessions[hash];
      return { sessions };
    });
  }

  /** Ends every session of a player; returns how many there were. */
  async endPlayer(playerId: string): Promise<number> {
    let ended = 0;
    await this.#file.modify((file) => {
      const kept = Object.entries(file.sessions).filter(([, session]) => session.player !== playerId);
      ended = Object.keys(file.sessions).length - kept.length;
      return { sessions: Object.fromEntries(kept) };
    });
    return ended;
  }
}
