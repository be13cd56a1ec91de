import {
  ArgumentCommandNode,
  CommandDispatcher,
  type RootCommandNode,
  SuggestionsBuilder,
} from "@jsprismarine/brigadier";
import type ArgumentType from "@jsprismarine/brigadier/arguments/ArgumentType";
import type CommandNode from "@jsprismarine/brigadier/tree/CommandNode";
import { AgentFailure } from "../agent-failure.js";
import type { Failure } from "../failure.js";
import { ActionType, type AgentAction } from "../module/action-type.js";
import type { AnyAgentModule } from "../module/agent-module.js";
import type { AgentCommand } from "./agent-command.js";
import { type CommandIdentity, type CommandSource, RecordingCommandSource } from "./command-source.js";
import { type CommandText, splitCommandText } from "./command-text.js";
import { isSyntaxException } from "./identifier-argument.js";

/** What the command step of routing concluded about one text. */
export type CommandOutcome =
  | { readonly kind: "none" }
  | {
      readonly kind: "action";
      readonly module: AnyAgentModule;
      readonly action: AgentAction;
      readonly alias: string;
    }
  | { readonly kind: "failure"; readonly failure: Failure; readonly module?: AnyAgentModule };

/** A node of the command tree as one player may see it (the shape sent to clients and shown in help). */
export interface CommandTreeNode {
  readonly name: string;
  readonly kind: "literal" | "argument";
  readonly executable: boolean;
  readonly children: readonly CommandTreeNode[];
}

interface AliasEntry {
  readonly module: AnyAgentModule;
  readonly command: AgentCommand<unknown>;
}

/** An alias a module asked for that the server's own command (a module without owner) already holds. */
export interface DroppedAlias {
  readonly alias: string;
  /** The module that asked for it and registered without it. */
  readonly module: AnyAgentModule;
  /** The server's own module that keeps it. */
  readonly holder: AnyAgentModule;
}

const NONE: CommandOutcome = { kind: "none" };

/** INPUT_INVALID carrying the usage of the command that was mistyped. */
export const usageFailure = (usage: string): Failure => ({
  code: AgentFailure.INPUT_INVALID.code,
  key: "system.command.usage",
  args: [usage],
});

const USAGE_HINTS = new WeakMap<object, string>();

/**
 * Shows `usage` instead of `<name>` for an argument of this type in usage lines, for arguments whose text has
 * its own shape (`<title> | <body>`, `on|off`). Returns the same type.
 */
export const withUsage = <T>(type: ArgumentType<T>, usage: string): ArgumentType<T> => {
  USAGE_HINTS.set(type, usage);
  return type;
};

const tokenOf = (node: CommandNode<CommandSource>): string => {
  if (!(node instanceof ArgumentCommandNode)) return node.getName();
  return USAGE_HINTS.get(node.getType() as object) ?? `<${node.getName()}>`;
};

type Continuation =
  | { readonly kind: "argument"; readonly forms: readonly string[] }
  | { readonly kind: "literals"; readonly heads: string[]; readonly tails: readonly string[] };

const isExecutable = (node: CommandNode<CommandSource>): boolean =>
  node.getCommand() !== null && node.getCommand() !== undefined;

/**
 * Every form of a node as flat lines: `grant <player> [feature]`, `mode ask|full|routing|simple [player]`.
 * Literal siblings with the same continuations share one line; the one argument after an executable node is
 * shown optional.
 */
const formsOf = (node: CommandNode<CommandSource>, source: CommandSource): string[] => {
  const self = tokenOf(node);
  const continuations: Continuation[] = [];
  const byTails = new Map<string, { kind: "literals"; heads: string[]; tails: readonly string[] }>();
  for (const child of node.getChildren() as Iterable<CommandNode<CommandSource>>) {
    if (!child.canUse(source)) continue;
    const forms = formsOf(child, source);
    if (child instanceof ArgumentCommandNode) {
      continuations.push({ kind: "argument", forms });
      continue;
    }
    const head = tokenOf(child);
    const tails = forms.map((form) => form.slice(head.length));
    const key = JSON.stringify(tails);
    const group = byTails.get(key);
    if (group !== undefined) group.heads.push(head);
    else {
      const created = { kind: "literals" as const, heads: [head], tails };
      byTails.set(key, created);
      continuations.push(created);
    }
  }
  const lines: string[] = [];
  const optional = isExecutable(node)
    ? continuations.find((entry) => entry.kind === "argument" && entry.forms.length === 1)
    : undefined;
  if (isExecutable(node)) {
    const form = optional?.kind === "argument" ? optional.forms[0] : undefined;
    // `[<feature>]` reads as `[feature]`; a longer optional tail keeps its brackets inside
    lines.push(form === undefined ? self : `${self} [${/^<[^<>]*>$/.test(form) ? form.slice(1, -1) : form}]`);
  }
  for (const entry of continuations) {
    if (entry === optional) continue;
    const forms =
      entry.kind === "argument" ? entry.forms : entry.tails.map((tail) => `${entry.heads.join("|")}${tail}`);
    for (const form of forms) lines.push(`${self} ${form}`);
  }
  return lines;
};

/**
 * The one Brigadier tree of an engine: parsing, help, completions and the client tree all read it. Literal
 * heads are matched without case (aliases are stored lower-case); argument text is kept as typed.
 */
export class CommandRegistry {
  readonly dispatcher = new CommandDispatcher<CommandSource>();
  readonly #aliases = new Map<string, AliasEntry>();
  readonly #dropped: DroppedAlias[] = [];
  readonly #roots: readonly string[];
  #frozen = false;

  /** `roots`: literals that may prefix any command (`/system item …` and `/item …` are the same command). */
  constructor(options: { readonly roots?: readonly string[] } = {}) {
    this.#roots = (options.roots ?? ["system"]).map((root) => root.toLowerCase());
  }

  /**
   * Adds a module's commands; every alias is checked before any is added, so a conflict changes nothing. The
   * server's own commands (modules without owner, such as `reload` and `mode`) win: a feature's module that asks
   * for one of their aliases registers without it (listed by `dropped()`); any other conflict throws.
   */
  register(
    module: AnyAgentModule,
    commands: readonly AgentCommand<unknown>[],
    /** Whether a player with these features has the module (some configuration of it); its owner by default. */
    usable: (features: ReadonlySet<string>) => boolean = (features) =>
      module.owner === undefined || features.has(module.owner.toString()),
  ): void {
    if (this.#frozen) throw new Error(`command tree is frozen; cannot add commands of ${module.id}`);
    const incoming = new Set<string>();
    const dropped: DroppedAlias[] = [];
    for (const command of commands)
      for (const alias of command.aliases) {
        const holder = this.#aliases.get(alias)?.module;
        if (holder !== undefined && holder.owner === undefined && module.owner !== undefined) {
          dropped.push({ alias, module, holder });
          continue;
        }
        if (holder !== undefined || incoming.has(alias))
          throw new Error(
            `module ${module.id}: command alias "${alias}" is already used by ${holder?.id.toString() ?? module.id}`,
          );
        if (this.#roots.includes(alias))
          throw new Error(`module ${module.id}: "${alias}" is a reserved root`);
        incoming.add(alias);
      }
    this.#dropped.push(...dropped);
    for (const command of commands)
      for (const alias of command.aliases.filter((candidate) => incoming.has(candidate))) {
        const builder = command.build(alias);
        const custom = builder.getRequirement() as ((source: CommandSource) => boolean) | undefined;
        builder.requires(
          (source) => usable(source.features) && (typeof custom !== "function" || custom(source)),
        );
        this.dispatcher.register(builder);
        this.#aliases.set(alias, { module, command });
      }
  }

  freeze(): void {
    this.#frozen = true;
  }

  /** The aliases modules asked for and lost to the server's own commands, in registration order. */
  dropped(): readonly DroppedAlias[] {
    return [...this.#dropped];
  }

  /** The shared root node (the host mounts it under `/system` when it sends the tree to game clients). */
  root(): RootCommandNode<CommandSource> {
    return this.dispatcher.getRoot();
  }

  /** The module that owns an alias (any case). */
  moduleOf(alias: string): AnyAgentModule | undefined {
    return this.#aliases.get(alias.toLowerCase())?.module;
  }

  /** The module whose alias heads a line (`/system quests`, `quests`, `/quests`), whoever may use it. */
  moduleOfLine(text: string): AnyAgentModule | undefined {
    return this.#aliases.get(splitCommandText(text, this.#roots).head)?.module;
  }

  /** Aliases by module, in registration order. */
  aliases(): ReadonlyMap<string, AnyAgentModule> {
    return new Map([...this.#aliases].map(([alias, entry]) => [alias, entry.module]));
  }

  /**
   * Every form of one alias this identity may use (`grant <player> [feature]`, `knowledge add <title> | <body>`,
   * `knowledge remove <id>`); empty when it may not use the alias.
   */
  usages(alias: string, identity: CommandIdentity): string[] {
    const source = new RecordingCommandSource(identity);
    const node = this.root().getChild(alias.toLowerCase());
    if (node === undefined || !node.canUse(source)) return [];
    return formsOf(node, source);
  }

  /** The forms of one alias on one line (`; ` between forms); undefined when this identity may not use it. */
  usage(alias: string, identity: CommandIdentity): string | undefined {
    const forms = this.usages(alias, identity);
    return forms.length === 0 ? undefined : forms.join("; ");
  }

  /**
   * Parses one line of player text. A slash line is explicit: a known head with bad arguments is INPUT_INVALID
   * with the usage, an unknown head is UNKNOWN_COMMAND. Plain text that is not a complete command is `none`.
   */
  async parse(text: string, identity: CommandIdentity): Promise<CommandOutcome> {
    const line = splitCommandText(text, this.#roots);
    if (line.head.length === 0)
      return line.explicit ? { kind: "failure", failure: usageFailure(this.#rootUsage()) } : NONE;
    const source = new RecordingCommandSource(identity);
    const node = this.root().getChild(line.head);
    const entry = this.#aliases.get(line.head);
    if (node === undefined || entry === undefined || !node.canUse(source))
      return line.explicit
        ? { kind: "failure", failure: AgentFailure.UNKNOWN_COMMAND.with(line.head) }
        : NONE;
    const invalid = (): CommandOutcome =>
      line.explicit
        ? { kind: "failure", failure: usageFailure(this.#usageText(line, identity)), module: entry.module }
        : NONE;
    try {
      const results: unknown = this.dispatcher.execute(this.dispatcher.parse(line.normalized, source));
      if (Array.isArray(results)) await Promise.all(results);
    } catch (error) {
      if (isSyntaxException(error)) return invalid();
      // A callback that throws is a bug in its module; the request fails, routing goes on for others.
      return {
        kind: "failure",
        failure: AgentFailure.MODULE_FAILED.with(`command ${line.head}`),
        module: entry.module,
      };
    }
    return this.#validate(entry.module, source.emitted, line.head, invalid);
  }

  /**
   * Completions for the token at the end of the text, filtered by this identity's `requires` and by `shown`
   * (whether the module behind an alias is offered to this player now; every module by default).
   */
  async completions(
    text: string,
    identity: CommandIdentity,
    shown: (module: AnyAgentModule) => boolean = () => true,
  ): Promise<string[]> {
    const line = splitCommandText(text, this.#roots, true);
    const typedPastHead = line.normalized.length > line.head.length;
    if (typedPastHead && !this.shows(line.head, shown)) return [];
    const source = new RecordingCommandSource(identity);
    const parse = this.dispatcher.parse(line.normalized, source);
    const context = parse.getContext();
    const cursor = line.normalized.length;
    const suggestionContext = context.findSuggestionContext(cursor);
    const atRoot = suggestionContext.parent === this.root();
    const found = new Set<string>();
    // hosts replace the last word typed: a value that starts earlier (a name with spaces) is cut to what follows
    const lastWord = line.normalized.lastIndexOf(" ") + 1;
    for (const child of suggestionContext.parent.getChildren() as Iterable<CommandNode<CommandSource>>) {
      if (!child.canUse(source)) continue;
      if (atRoot && !this.shows(child.getName(), shown)) continue;
      try {
        const builder = new SuggestionsBuilder(line.normalized, Math.min(suggestionContext.startPos, cursor));
        const suggestions = await child.listSuggestions(context.build(line.normalized), builder);
        for (const suggestion of suggestions.getList()) {
          const text = lastWordOf(
            line.normalized,
            lastWord,
            suggestion.getRange().getStart(),
            suggestion.getText(),
          );
          if (text !== undefined) found.add(text);
        }
      } catch {
        // A provider that fails offers nothing; completion must never break typing.
      }
    }
    return [...found].sort();
  }

  /** The part of the tree this identity may use, without the aliases of modules `shown` leaves out. */
  tree(
    identity: CommandIdentity,
    shown: (module: AnyAgentModule) => boolean = () => true,
  ): CommandTreeNode[] {
    const source = new RecordingCommandSource(identity);
    const visit = (node: CommandNode<CommandSource>): CommandTreeNode => ({
      name: node.getName(),
      kind: node.getNodeType() === "literal" ? "literal" : "argument",
      executable: node.getCommand() !== null && node.getCommand() !== undefined,
      children: [...node.getChildren()].filter((child) => child.canUse(source)).map(visit),
    });
    return [...this.root().getChildren()]
      .filter((node) => node.canUse(source) && this.shows(node.getName(), shown))
      .map(visit);
  }

  /** Whether an alias is offered under `shown` (an alias no module owns, such as a root, always is). */
  shows(alias: string, shown: (module: AnyAgentModule) => boolean): boolean {
    const entry = this.#aliases.get(alias.toLowerCase());
    return entry === undefined || shown(entry.module);
  }

  #validate(
    module: AnyAgentModule,
    emitted: readonly unknown[],
    alias: string,
    invalid: () => CommandOutcome,
  ): CommandOutcome {
    if (emitted.length !== 1) return invalid();
    const value = emitted[0];
    let input = value;
    if (value instanceof Object && "type" in value && value.type instanceof ActionType) {
      if (value.type !== module.action)
        return {
          kind: "failure",
          failure: AgentFailure.MODULE_FAILED.with(
            `command ${alias} of ${module.id} emitted ${value.type.id}`,
          ),
          module,
        };
      input = (value as AgentAction).input;
    }
    if (input === undefined) return invalid();
    const decoded = module.action.codec.decode(input);
    if (!decoded.success) return invalid();
    return { kind: "action", module, action: module.action.decoded(decoded.value), alias };
  }

  /** Every form of the mistyped command, each with the root the player typed: `/system mode …; /system mode …`. */
  #usageText(line: CommandText, identity: CommandIdentity): string {
    const forms = this.usages(line.head, identity);
    return (forms.length === 0 ? [line.head] : forms)
      .map((form) => `/${line.root ?? this.#roots[0] ?? ""} ${form}`.replace(/^\/ /, "/"))
      .join("; ");
  }

  #rootUsage(): string {
    return `/${this.#roots[0] ?? ""} <command>`;
  }
}

/**
 * A suggestion as hosts apply it, replacing the last space-separated word of `text` (which starts at `lastWord`):
 * one whose range starts earlier (`Diamond Sword` for `diamond sw`) keeps only what follows that word's start,
 * and only when what was typed before it matches; undefined when it does not fit.
 */
const lastWordOf = (
  text: string,
  lastWord: number,
  start: number,
  suggestion: string,
): string | undefined => {
  if (start >= lastWord) return suggestion;
  const before = text.slice(start, lastWord).toLowerCase();
  if (!suggestion.toLowerCase().startsWith(before)) return undefined;
  const rest = suggestion.slice(lastWord - start);
  return rest === "" ? undefined : rest;
};
