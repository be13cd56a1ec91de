import type { Logger } from "../../../util/logger.js";
import { RconConnection } from "./rcon-connection.js";
import { RconError } from "./rcon-error.js";
import { bodyBytes, MAX_BODY_BYTES } from "./rcon-packet.js";

/** How long a command may take, from its turn to its whole reply (connecting included). */
export const DEFAULT_COMMAND_TIMEOUT_MILLIS = 10_000;
/** How long one connection attempt may take. */
export const DEFAULT_CONNECT_TIMEOUT_MILLIS = 5_000;
/** The wait after the first failed connection attempt, doubled after each further one up to the maximum. */
export const DEFAULT_BACKOFF = { initialMillis: 250, maxMillis: 10_000 } as const;

export interface RconClientOptions {
  readonly host: string;
  readonly port: number;
  /** The backend's `rcon.password` (see `loadRconSettings`). */
  readonly password: string;
  readonly logger: Logger;
  readonly commandTimeoutMillis?: number;
  readonly connectTimeoutMillis?: number;
  readonly backoff?: { readonly initialMillis: number; readonly maxMillis: number };
}

/**
 * A Minecraft RCON client: one command at a time (a command waits for the previous reply to be complete),
 * replies reassembled from their fragments with an end marker, a connection opened on demand and opened again
 * with backoff after it broke, and a deadline per command. A command the backend may have run is never sent
 * again by the client: its failure says `sent`.
 */
export class RconClient {
  readonly #options: RconClientOptions;
  #queue: Promise<unknown> = Promise.resolve();
  #connection: RconConnection | undefined;
  #nextId = 1;
  #failures = 0;
  #retryAt = 0;
  #logins = 0;
  #closed = false;
  readonly #closing = new AbortController();

  constructor(options: RconClientOptions) {
    if (bodyBytes(options.password) > MAX_BODY_BYTES || options.password.includes("\0"))
      throw new TypeError("an RCON password must be under 1 446 bytes without NUL");
    this.#options = options;
  }

  /** Whether a logged-in connection is open now (it opens on demand, with the next command). */
  get connected(): boolean {
    return this.#connection?.alive === true;
  }

  /** How many times a login succeeded; it changes when the client reconnected (the backend may have restarted). */
  get logins(): number {
    return this.#logins;
  }

  /**
   * Sends one command and resolves with its whole reply (fragments joined; `""` when the command says nothing).
   * Rejects with an RconError: `command_rejected` for a command vanilla could not read (never sent), `unavailable`
   * or `login_refused` when no connection could be made (not sent), `connection_lost` or `timeout` once sent.
   */
  command(
    text: string,
    options: { readonly timeoutMillis?: number; readonly signal?: AbortSignal } = {},
  ): Promise<string> {
    const refusal = checkCommand(text);
    if (refusal !== undefined) return Promise.reject(new RconError("command_rejected", refusal, false, text));
    const timeout =
      options.timeoutMillis ?? this.#options.commandTimeoutMillis ?? DEFAULT_COMMAND_TIMEOUT_MILLIS;
    const run = this.#queue.then(() => this.#run(text, Date.now() + timeout, options.signal));
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Closes the connection; commands still waiting fail with `closed`. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort();
    this.#connection?.destroy(new RconError("closed", "the RCON client was closed", true));
    this.#connection = undefined;
    await this.#queue;
  }

  async #run(command: string, deadline: number, signal: AbortSignal | undefined): Promise<string> {
    const connection = await this.#connected(deadline, command, signal);
    // the caller gave up while the connection opened: nothing is sent
    if (signal?.aborted) throw cancelled(command);
    const commandId = this.#id();
    const markerId = this.#id();
    try {
      return await connection.run(command, { command: commandId, marker: markerId }, deadline);
    } finally {
      if (!connection.alive && this.#connection === connection) this.#connection = undefined;
    }
  }

  /** The open connection, or a new one (after the backoff wait) logged in; rejects without sending anything. */
  async #connected(
    deadline: number,
    command: string,
    signal: AbortSignal | undefined,
  ): Promise<RconConnection> {
    const { host, port, logger } = this.#options;
    let lastError: RconError | undefined;
    for (;;) {
      if (this.#closed) throw new RconError("closed", "the RCON client was closed", false, command);
      if (signal?.aborted) throw cancelled(command);
      if (this.#connection?.alive) return this.#connection;
      const wait = this.#retryAt - Date.now();
      if (wait > 0) {
        if (Date.now() + wait >= deadline) throw unavailable(host, port, lastError, command);
        await sleep(
          wait,
          signal === undefined ? this.#closing.signal : AbortSignal.any([this.#closing.signal, signal]),
        );
        continue;
      }
      if (Date.now() >= deadline) throw unavailable(host, port, lastError, command);
      let connection: RconConnection | undefined;
      try {
        const connectTimeout = this.#options.connectTimeoutMillis ?? DEFAULT_CONNECT_TIMEOUT_MILLIS;
        connection = await RconConnection.open(host, port, Math.min(connectTimeout, deadline - Date.now()));
        await connection.login(this.#options.password, this.#id(), deadline);
      } catch (error) {
        const failure =
          error instanceof RconError ? error : new RconError("unavailable", String(error), false, command);
        connection?.destroy(failure);
        this.#failed(failure);
        if (failure.kind === "login_refused")
          throw new RconError(
            "login_refused",
            `the RCON of ${host}:${port} refused the password (compare rcon.password in server.properties with the password file)`,
            false,
            command,
          );
        lastError = failure;
        continue;
      }
      if (this.#failures > 0) logger.info(`RCON: connected to ${host}:${port} again`);
      this.#failures = 0;
      this.#retryAt = 0;
      this.#logins++;
      this.#connection = connection;
      return connection;
    }
  }

  #failed(error: RconError): void {
    const { host, port, logger } = this.#options;
    const backoff = this.#options.backoff ?? DEFAULT_BACKOFF;
    if (this.#failures === 0)
      logger.warn(`RCON at ${host}:${port} is unavailable (${error.message}); retrying`);
    this.#failures++;
    const delay = Math.min(backoff.maxMillis, backoff.initialMillis * 2 ** Math.min(this.#failures - 1, 20));
    this.#retryAt = Date.now() + delay;
  }

  #id(): number {
    const id = this.#nextId;
    this.#nextId = id >= 0x7fff_fff0 ? 1 : id + 1;
    return id;
  }
}

/** Why a command cannot be sent, or undefined when it can. */
export const checkCommand = (text: string): string | undefined => {
  if (text.trim() === "") return "an empty RCON command";
  if (text.includes("\0")) return "an RCON command cannot hold a NUL character (vanilla would cut it there)";
  const bytes = bodyBytes(text);
  if (bytes > MAX_BODY_BYTES)
    return `an RCON command of ${bytes} bytes is longer than the ${MAX_BODY_BYTES} bytes vanilla reads in one request`;
  return undefined;
};

const cancelled = (command: string): RconError =>
  new RconError("cancelled", "the command was given up before it was sent", false, command);

const unavailable = (host: string, port: number, cause: RconError | undefined, command: string): RconError =>
  new RconError(
    "unavailable",
    `no RCON connection to ${host}:${port} in time${cause === undefined ? "" : ` (${cause.message})`}`,
    false,
    command,
  );

const sleep = (millis: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, millis);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
