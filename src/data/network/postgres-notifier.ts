import pg from "pg";
import type { Logger } from "../../util/logger.js";

/** Waits between reconnect attempts: doubling from the first to the last, then staying there. */
export interface Backoff {
  readonly firstMillis: number;
  readonly maxMillis: number;
}

const DEFAULT_BACKOFF: Backoff = { firstMillis: 100, maxMillis: 5_000 };

export interface NotifierOptions {
  /** Settings of the dedicated connection (never a pooled one: a pool hands connections back and forgets LISTEN). */
  readonly connection: pg.ClientConfig;
  readonly channel: string;
  /** One notification's payload, in the order the database delivered them. */
  readonly onMessage: (payload: string) => void;
  /**
   * Called after every reconnect, once LISTEN is in place again: notifications sent while the connection was
   * down are lost for good, so whatever they would have invalidated must be re-read now.
   */
  readonly onResync: () => Promise<void> | void;
  readonly logger: Logger;
  readonly backoff?: Backoff;
}

/**
 * LISTEN/NOTIFY on a dedicated connection that comes back by itself: when the connection drops (a database
 * restart, a network cut) it reconnects with backoff, LISTENs again, then calls `onResync`. `publish` sends
 * on any pooled connection; NOTIFY is delivered at commit to every listener, the sender's own included.
 */
export class PostgresNotifier {
  #client: pg.Client | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #attempt = 0;
  #reconnects = 0;

  private constructor(private readonly options: NotifierOptions) {}

  /** Connects and LISTENs; rejects when the database cannot be reached now (the start should say so). */
  static async start(options: NotifierOptions): Promise<PostgresNotifier> {
    const notifier = new PostgresNotifier(options);
    await notifier.#connect();
    return notifier;
  }

  /** Sends one notification on `channel` (payloads stay under PostgreSQL's 8000 bytes). */
  static async publish(pool: pg.Pool, channel: string, payload: string): Promise<void> {
    await pool.query("SELECT pg_notify($1, $2)", [channel, payload]);
  }

  /** How often the connection came back after a drop. */
  get reconnects(): number {
    return this.#reconnects;
  }

  /** True while LISTEN is in place. */
  get listening(): boolean {
    return this.#client !== undefined;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ ...this.options.connection, keepAlive: true });
    let lost = false;
    const drop = (reason: string): void => {
      if (lost) return;
      lost = true;
      if (this.#client === client) this.#client = undefined;
      client.end().catch(() => undefined);
      if (this.#closed) return;
      this.options.logger.warn(`storage: the notification connection dropped (${reason}); reconnecting`);
      this.#schedule();
    };
    client.on("error", (error) => drop(error.message));
    client.on("end", () => drop("closed by the server"));
    client.on("notification", (message) => {
      if (message.channel === this.options.channel && message.payload !== undefined)
        this.options.onMessage(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.options.channel)}`);
    } catch (error) {
      lost = true;
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#attempt = 0;
  }

  #schedule(): void {
    const backoff = this.options.backoff ?? DEFAULT_BACKOFF;
    const wait = Math.min(backoff.maxMillis, backoff.firstMillis * 2 ** this.#attempt);
    this.#attempt++;
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => {
      this.#reconnect().catch(() => undefined);
    }, wait);
    this.#retry.unref();
  }

  async #reconnect(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#connect();
    } catch {
      if (!this.#closed) this.#schedule();
      return;
    }
    if (this.#closed) return;
    this.#reconnects++;
    this.options.logger.info("storage: notifications listening again; re-reading shared state");
    try {
      await this.options.onResync();
    } catch (error) {
      this.options.logger.error("storage: re-reading shared state after a reconnect failed", error);
    }
  }
}
