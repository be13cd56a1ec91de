import { createRequire } from "node:module";
import type { Logger } from "../../../util/logger.js";

/** The translation keys whose en_us texts the reply parsers read. */
export type ReplyKey = (typeof REPLY_KEYS)[number];

/** Every key a parser uses; a language file lacking one is refused when loaded. */
export const REPLY_KEYS = [
  "commands.give.success.single",
  "commands.give.success.multiple",
  "commands.give.failed.toomanyitems",
  "commands.clear.success.single",
  "commands.clear.success.multiple",
  "commands.clear.test.single",
  "commands.clear.test.multiple",
  "clear.failed.single",
  "clear.failed.multiple",
  "commands.data.entity.query",
  "commands.data.get.multiple",
  "arguments.nbtpath.nothing_found",
  "commands.list.players",
  "commands.list.nameAndId",
  "commands.save.saving",
  "commands.save.success",
  "commands.save.failed",
  "commands.experience.add.points.success.single",
  "commands.experience.add.points.success.multiple",
  "commands.experience.add.levels.success.single",
  "commands.experience.add.levels.success.multiple",
  "commands.scoreboard.objectives.add.success",
  "commands.scoreboard.objectives.add.duplicate",
  "commands.scoreboard.players.get.success",
  "commands.scoreboard.players.get.null",
  "arguments.objective.notFound",
  "argument.criteria.invalid",
  "argument.entity.notfound.player",
  "argument.entity.notfound.entity",
  "argument.item.id.invalid",
  "command.unknown.command",
  "command.unknown.argument",
  "command.expected.separator",
  "command.context.here",
] as const;

/** A compiled template: the pattern and, per capture group, which argument (0-based) it holds. */
interface CompiledTemplate {
  readonly source: string;
  readonly argumentOf: readonly number[];
}

/** What a matched reply said: the arguments of each template in order. */
export type ReplyArguments = readonly (readonly string[])[];

/**
 * The server's own reply texts for one game version (en_us: a dedicated server formats every reply in English),
 * from minecraft-data's `language.json`. Replies are matched against the templates with their `%s`/`%1$s`
 * placeholders as captures, so a changed text in a later version is read from that version's file, not guessed.
 */
export class ReplyLanguage {
  readonly #templates: ReadonlyMap<string, string>;
  readonly #compiled = new Map<string, CompiledTemplate>();

  constructor(
    /** The version whose file the texts come from (the backend's, or the nearest one minecraft-data has). */
    readonly version: string,
    templates: Readonly<Record<string, string>>,
  ) {
    const missing = REPLY_KEYS.filter((key) => typeof templates[key] !== "string");
    if (missing.length > 0) throw new TypeError(`language of ${version} lacks ${missing.join(", ")}`);
    this.#templates = new Map(REPLY_KEYS.map((key) => [key, templates[key] as string]));
  }

  /** The raw template of a key. */
  template(key: ReplyKey): string {
    return this.#templates.get(key) ?? key;
  }

  /** Formats a key as the server would (`%s` in order, `%1$s` by position): what the test stand-in answers. */
  format(key: ReplyKey, args: readonly (string | number)[]): string {
    let next = 0;
    return this.template(key).replace(/%(?:(\d+)\$)?[sd]|%%/g, (token, position: string | undefined) => {
      if (token === "%%") return "%";
      const index = position === undefined ? next++ : Number(position) - 1;
      return String(args[index] ?? "");
    });
  }

  /**
   * Matches a whole reply made of the messages `keys` in order (vanilla joins the messages of one command with
   * nothing between them, Paper with a newline). `patterns` narrows an argument's capture (by key and position);
   * `context` allows the `…<--[HERE]` line vanilla adds after a parse error. Returns each message's arguments.
   */
  match(
    reply: string,
    keys: readonly ReplyKey[],
    options: {
      readonly patterns?: Partial<Record<ReplyKey, readonly (string | undefined)[]>>;
      readonly context?: boolean;
    } = {},
  ): ReplyArguments | undefined {
    const compiled = keys.map((key) => this.#compile(key, options.patterns?.[key]));
    const here = escapeRegExp(this.template("command.context.here"));
    const tail = options.context === true ? `(?:\\n?.*${here})?` : "";
    const pattern = new RegExp(`^${compiled.map((entry) => entry.source).join("\\n?")}${tail}\\n?$`, "s");
    const found = pattern.exec(normalizeReply(reply));
    if (found === null) return undefined;
    let group = 1;
    return compiled.map((entry) => {
      const args: string[] = [];
      for (const index of entry.argumentOf) args[index] = found[group++] ?? "";
      return args;
    });
  }

  #compile(key: ReplyKey, patterns: readonly (string | undefined)[] | undefined): CompiledTemplate {
    const cacheKey = `${key}\u0000${patterns?.join("\u0000") ?? ""}`;
    const cached = this.#compiled.get(cacheKey);
    if (cached !== undefined) return cached;
    const template = this.template(key);
    const argumentOf: number[] = [];
    let source = "";
    let last = 0;
    let next = 0;
    for (const token of template.matchAll(/%(?:(\d+)\$)?[sd]|%%/g)) {
      source += escapeRegExp(template.slice(last, token.index));
      last = token.index + token[0].length;
      if (token[0] === "%%") {
        source += "%";
        continue;
      }
      const index = token[1] === undefined ? next++ : Number(token[1]) - 1;
      argumentOf.push(index);
      source += `(${patterns?.[index] ?? ".*?"})`;
    }
    source += escapeRegExp(template.slice(last));
    const compiled = { source, argumentOf };
    this.#compiled.set(cacheKey, compiled);
    return compiled;
  }
}

/** Drops `§` formatting codes (Paper and plugins send them over RCON) and a trailing newline. */
export const normalizeReply = (reply: string): string =>
  reply.replace(/§[0-9a-fk-orx]/gi, "").replace(/\n+$/, "");

const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");

type LanguageData = {
  readonly language?: Readonly<Record<string, string>>;
  readonly version: { readonly minecraftVersion: string };
} | null;

/**
 * The reply texts of a game version from minecraft-data. A version minecraft-data does not know (a newer server)
 * falls back to the newest release it has, with a warning: these texts rarely change between releases.
 */
export const loadReplyLanguage = (version: string, logger: Logger): ReplyLanguage => {
  const minecraftData = createRequire(import.meta.url)("minecraft-data") as ((
    version: string,
  ) => LanguageData) & {
    readonly versions: {
      readonly pc: readonly { readonly minecraftVersion: string; readonly releaseType?: string }[];
    };
  };
  const exact = minecraftData(version);
  if (exact?.language !== undefined) return new ReplyLanguage(exact.version.minecraftVersion, exact.language);
  const newest = minecraftData.versions.pc.find(
    (entry) =>
      entry.releaseType === "release" && minecraftData(entry.minecraftVersion)?.language !== undefined,
  );
  if (newest === undefined) throw new TypeError("minecraft-data has no language file");
  logger.warn(
    `minecraft-data has no reply texts for Minecraft ${version}; reading RCON replies with those of ${newest.minecraftVersion}`,
  );
  return new ReplyLanguage(newest.minecraftVersion, minecraftData(newest.minecraftVersion)?.language ?? {});
};
