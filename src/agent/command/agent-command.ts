import {
  argument as argumentNode,
  type CommandContext,
  greedyString,
  type LiteralArgumentBuilder,
  literal as literalNode,
} from "@jsprismarine/brigadier";
import type { Identifier } from "../../util/identifier.js";
import type { CommandSource } from "./command-source.js";
import { IdentifierArgumentType } from "./identifier-argument.js";

/** Builds the literal node of one alias; the registry calls it once per alias and adds its `requires`. */
export type CommandNodeFactory = (alias: string) => LiteralArgumentBuilder<CommandSource>;

/**
 * Values a text argument may take, for completion: given what the player typed of it, their language and who they
 * are, whole values (`Diamond Sword`, `钻石剑`) that start with it, best first, never one the player may not see.
 * Read-only and quick: it runs on every Tab.
 */
export type ArgumentSuggestions = (
  typed: string,
  locale: string,
  playerId: string,
) => readonly string[] | Promise<readonly string[]>;

/** An argument spec (`<query>` or `[query]`) with the values it suggests. */
export interface SuggestedArgument {
  readonly spec: string;
  readonly suggest: ArgumentSuggestions;
}

/** How many values one completion offers at most (a client lists them all). */
const SUGGESTION_LIMIT = 20;

/** Reads a module input from argument text; undefined means the text is not a valid argument. */
export type ArgumentParser<I, T = string> = (value: T) => I | undefined;

const ARGUMENT_SPEC = /^(<([a-z][a-z0-9_]*)>|\[([a-z][a-z0-9_]*)\])$/;

const emit = (context: CommandContext<CommandSource>, input: unknown): Promise<number> => {
  context.getSource().action(input);
  return Promise.resolve(1);
};

/**
 * A module's command entry: aliases plus the Brigadier node each alias becomes. Callbacks only hand an input
 * to `source.action`; the CommandRegistry validates it against the module's codec before anything runs.
 */
export class AgentCommand<I> {
  /** Ties the command to its module input type (never set at run time). */
  declare readonly __input?: I;
  readonly aliases: readonly string[];

  constructor(
    aliases: readonly string[],
    readonly build: CommandNodeFactory,
  ) {
    if (aliases.length === 0) throw new Error("a command needs at least one alias");
    for (const alias of aliases)
      if (alias.length === 0 || /\s/.test(alias))
        throw new Error(`invalid command alias ${JSON.stringify(alias)}`);
    this.aliases = aliases.map((alias) => alias.toLowerCase());
  }

  /** A command without arguments that always hands over the same input (or a fresh one from a factory). */
  static literal<I>(input: I | (() => I), ...aliases: string[]): AgentCommand<I> {
    const make = typeof input === "function" ? (input as () => I) : () => input;
    return new AgentCommand<I>(aliases, (alias) =>
      literalNode<CommandSource>(alias).executes((context) => emit(context, make())),
    );
  }

  /**
   * A command with one greedy text argument, `<query>` (required) or `[query]` (optional: the parser then
   * also receives ""). The text reaches the parser exactly as typed, spaces and case included. Given with
   * `suggest`, the argument completes to the values it returns.
   */
  static argument<I>(
    argument: string | SuggestedArgument,
    parser: ArgumentParser<I>,
    ...aliases: string[]
  ): AgentCommand<I> {
    const spec = typeof argument === "string" ? argument : argument.spec;
    const match = ARGUMENT_SPEC.exec(spec);
    if (match === null) throw new Error(`argument spec must be <name> or [name]: ${spec}`);
    const name = match[2] ?? match[3] ?? "query";
    const optional = match[3] !== undefined;
    return new AgentCommand<I>(aliases, (alias) => {
      const text = argumentNode<CommandSource, string>(name, greedyString()).executes((context) =>
        emit(context, parser(String(context.getArgument(name)))),
      );
      if (typeof argument !== "string")
        text.suggests({
          getSuggestions: async (context, builder) => {
            const source = context.getSource();
            const values = await argument.suggest(
              builder.getRemaining(),
              source.locale ?? "en_us",
              source.playerId,
            );
            for (const value of values.slice(0, SUGGESTION_LIMIT)) builder.suggest(value);
            return builder.build();
          },
        });
      const node = literalNode<CommandSource>(alias).then(text);
      return optional ? node.executes((context) => emit(context, parser(""))) : node;
    });
  }

  /** A command with one resource id argument (`minecraft:diamond`, or a bare path in `minecraft`). */
  static identifier<I>(
    name: string,
    parser: ArgumentParser<I, Identifier>,
    ...aliases: string[]
  ): AgentCommand<I> {
    return new AgentCommand<I>(aliases, (alias) =>
      literalNode<CommandSource>(alias).then(
        argumentNode<CommandSource, Identifier>(name, new IdentifierArgumentType()).executes((context) =>
          emit(context, parser(context.getArgument(name) as Identifier)),
        ),
      ),
    );
  }

  /** A command described by a native Brigadier builder (its own arguments, `requires` and `suggests`). */
  static custom<I>(aliases: readonly string[], build: CommandNodeFactory): AgentCommand<I> {
    return new AgentCommand<I>(aliases, build);
  }
}
