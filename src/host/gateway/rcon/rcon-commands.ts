import type { Logger } from "../../../util/logger.js";
import { listCommand } from "./player-commands.js";
import type { RconClient } from "./rcon-client.js";
import { type CommandDialect, commandText, type RconCommand } from "./rcon-command.js";
import { RconError } from "./rcon-error.js";
import { normalizeReply, type ReplyLanguage } from "./reply-language.js";

/** The longest part of an unrecognised reply quoted in its error. */
const QUOTED_REPLY_CHARS = 300;

/**
 * Runs typed commands over an RconClient and reads their replies by the backend version's own texts. A reply no
 * template matches rejects with `unrecognized_reply` naming the command: its outcome is unknown, never a success.
 * The command dialect is found once per connection: `minecraft:list` is answered on Paper and Spigot (where only
 * the namespaced name is safe from plugins) and refused as an unknown command on vanilla, Fabric and NeoForge.
 */
export class RconCommands {
  #dialect: { readonly value: CommandDialect; readonly logins: number } | undefined;

  constructor(
    private readonly options: {
      readonly client: RconClient;
      readonly language: ReplyLanguage;
      readonly logger: Logger;
      /** Skips the detection (an admin who knows the backend). */
      readonly dialect?: CommandDialect;
    },
  ) {}

  /** How many times the client logged in: a change means the connection broke (the backend may have restarted). */
  get logins(): number {
    return this.options.client.logins;
  }

  /** Sends a command and reads its reply; rejects with an RconError when the outcome is unknown. */
  async run<R>(
    command: RconCommand<R>,
    options: { readonly timeoutMillis?: number; readonly signal?: AbortSignal } = {},
  ): Promise<R> {
    let dialect: CommandDialect;
    try {
      dialect = await this.dialect(options);
    } catch (error) {
      // the probe only reads: whatever became of it, the command itself was not sent
      if (!(error instanceof RconError)) throw error;
      throw new RconError(error.kind, `${error.message} ("${command.name}" was not sent)`, false);
    }
    const text = commandText(command, dialect);
    return this.#read(command, text, await this.options.client.command(text, options));
  }

  /** How this backend names vanilla commands (asked once per connection). */
  async dialect(
    options: { readonly timeoutMillis?: number; readonly signal?: AbortSignal } = {},
  ): Promise<CommandDialect> {
    if (this.options.dialect !== undefined) return this.options.dialect;
    const { client, logger } = this.options;
    if (this.#dialect !== undefined && this.#dialect.logins === client.logins && client.connected)
      return this.#dialect.value;
    const probe = listCommand();
    const text = commandText(probe, "namespaced");
    const reply = this.#read(probe, text, await client.command(text, options));
    const value: CommandDialect = reply.outcome === "list" ? "namespaced" : "plain";
    if (this.#dialect?.value !== value)
      logger.info(
        value === "namespaced"
          ? "RCON: the backend knows minecraft:-namespaced commands (Paper/Spigot); System sends those"
          : "RCON: the backend knows only plain command names (vanilla, Fabric, NeoForge); System sends those",
      );
    this.#dialect = { value, logins: client.logins };
    return value;
  }

  #read<R>(command: RconCommand<R>, text: string, reply: string): R {
    const parsed = command.parse(reply, this.options.language);
    if (parsed !== undefined) return parsed;
    const shown = normalizeReply(reply);
    throw new RconError(
      "unrecognized_reply",
      `the backend answered "${text}" with a reply System cannot read (Minecraft ${this.options.language.version} texts): ` +
        JSON.stringify(shown.length > QUOTED_REPLY_CHARS ? `${shown.slice(0, QUOTED_REPLY_CHARS)}…` : shown),
      true,
      text,
      reply,
    );
  }
}
