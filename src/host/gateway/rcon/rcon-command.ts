import type { ReplyArguments, ReplyKey, ReplyLanguage } from "./reply-language.js";

/**
 * How the backend names vanilla commands. Paper and Spigot register each vanilla command also as
 * `minecraft:<name>`, the only name a plugin cannot take over (EssentialsX replaces `give` and `list`); vanilla,
 * Fabric and NeoForge know only the plain name and answer `minecraft:give` with "Unknown or incomplete command".
 */
export type CommandDialect = "namespaced" | "plain";

/** A vanilla command with checked arguments, and how to read its reply. */
export interface RconCommand<R> {
  /** The vanilla command (`give`, `save-all`). */
  readonly name: string;
  readonly arguments: readonly string[];
  /** The reply read by the server's own texts; undefined when no template matches (outcome unknown). */
  parse(reply: string, language: ReplyLanguage): R | undefined;
}

/** The text sent: `minecraft:give Steve minecraft:bread 3` (namespaced) or `give Steve minecraft:bread 3`. */
export const commandText = (command: RconCommand<unknown>, dialect: CommandDialect): string =>
  [dialect === "namespaced" ? `minecraft:${command.name}` : command.name, ...command.arguments].join(" ");

/** The command never ran: the backend could not parse it (wrong dialect, disabled command). */
export interface UnknownCommand {
  readonly outcome: "unknown_command";
}

/** No online player has the name (vanilla: "No player was found"); nothing changed. */
export interface NoPlayer {
  readonly outcome: "no_player";
}

/** No entity matched (vanilla: "No entity was found"); for `data get entity` of a player who is not online. */
export interface NoEntity {
  readonly outcome: "no_entity";
}

/** The backend has no such item (a mod not installed, a typo); nothing changed. */
export interface UnknownItem {
  readonly outcome: "unknown_item";
  readonly item: string;
}

/** One way a reply can read. */
export interface ReplyCase<R> {
  readonly keys: readonly ReplyKey[];
  /** Capture patterns per argument position, by key. */
  readonly patterns?: Partial<Record<ReplyKey, readonly (string | undefined)[]>>;
  /** A parse error's context line (`…<--[HERE]`) may follow. */
  readonly context?: boolean;
  read(args: ReplyArguments): R;
}

/** Vanilla's parse errors: the command never ran. */
const UNKNOWN_COMMAND_CASES: readonly ReplyCase<UnknownCommand>[] = (
  ["command.unknown.command", "command.unknown.argument", "command.expected.separator"] as const
).map((key) => ({ keys: [key], context: true, read: () => ({ outcome: "unknown_command" }) }));

export const NO_PLAYER_CASE: ReplyCase<NoPlayer> = {
  keys: ["argument.entity.notfound.player"],
  read: () => ({ outcome: "no_player" }),
};

export const NO_ENTITY_CASE: ReplyCase<NoEntity> = {
  keys: ["argument.entity.notfound.entity"],
  read: () => ({ outcome: "no_entity" }),
};

export const UNKNOWN_ITEM_CASE: ReplyCase<UnknownItem> = {
  keys: ["argument.item.id.invalid"],
  context: true,
  read: (args) => ({ outcome: "unknown_item", item: arg(args, 0, 0) }),
};

/** The first case the reply matches (the command's own, then the parse errors), or undefined. */
export const readReply = <R>(
  reply: string,
  language: ReplyLanguage,
  cases: readonly ReplyCase<R>[],
): R | UnknownCommand | undefined => {
  for (const replyCase of [...cases, ...UNKNOWN_COMMAND_CASES]) {
    const args = language.match(reply, replyCase.keys, {
      ...(replyCase.patterns === undefined ? {} : { patterns: replyCase.patterns }),
      ...(replyCase.context === undefined ? {} : { context: replyCase.context }),
    });
    if (args !== undefined) return replyCase.read(args);
  }
  return undefined;
};

/** Argument `index` of message `message` (empty when absent). */
export const arg = (args: ReplyArguments, message: number, index: number): string =>
  args[message]?.[index] ?? "";

/** Capture patterns. */
export const NUMBER = "-?\\d+";
export const BRACKETED = "\\[.+?\\]";
export const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/** `[kills]` → `kills` (vanilla wraps display names of items and objectives in brackets). */
export const unbracket = (text: string): string =>
  text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
