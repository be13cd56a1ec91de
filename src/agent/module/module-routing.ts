import type { AgentCommand } from "../command/agent-command.js";
import type { RoutingProfile } from "./routing-profile.js";

/**
 * How the model router may select a module (ModuleRouting.Selection of the seed): `defaults` takes part
 * normally; `explicit_only` is offered to the model with `explicitOnly: true` but never routed locally;
 * `structured_only` is reached only by its commands and buttons.
 */
export type Selection = "defaults" | "explicit_only" | "structured_only";

/** A read-only button shown in clarify and fallback cards, with a fixed input. */
export interface Shortcut<I> {
  readonly labelKey: string;
  readonly input: I;
}

/** Turns a card button's string arguments back into this module's input (validated by its codec afterwards). */
export type ButtonAdapter<I> = (args: readonly string[]) => I | undefined;

interface RoutingState<I> {
  readonly selection: Selection;
  readonly commands: readonly AgentCommand<I>[];
  readonly profile: RoutingProfile<I> | undefined;
  readonly shortcuts: readonly Shortcut<I>[];
  readonly choiceKey: string | undefined;
  readonly button: ButtonAdapter<I> | undefined;
}

/** The entry points of one module, declared once; every builder method returns a new declaration. */
export class ModuleRouting<I> {
  private constructor(private readonly state: RoutingState<I>) {}

  static defaults<I>(): ModuleRouting<I> {
    return ModuleRouting.#of<I>("defaults");
  }
  static explicitOnly<I>(): ModuleRouting<I> {
    return ModuleRouting.#of<I>("explicit_only");
  }
  static structuredOnly<I>(): ModuleRouting<I> {
    return ModuleRouting.#of<I>("structured_only");
  }

  static #of<I>(selection: Selection): ModuleRouting<I> {
    return new ModuleRouting<I>({
      selection,
      commands: [],
      profile: undefined,
      shortcuts: [],
      choiceKey: undefined,
      button: undefined,
    });
  }

  get selection(): Selection {
    return this.state.selection;
  }
  get commands(): readonly AgentCommand<I>[] {
    return this.state.commands;
  }
  get profile(): RoutingProfile<I> | undefined {
    return this.state.profile;
  }
  get shortcuts(): readonly Shortcut<I>[] {
    return this.state.shortcuts;
  }
  /** The label of a candidate built from this module's extractor in fallback and clarify cards. */
  get choiceKey(): string | undefined {
    return this.state.choiceKey;
  }
  get buttonAdapter(): ButtonAdapter<I> | undefined {
    return this.state.button;
  }

  command(command: AgentCommand<I>): ModuleRouting<I> {
    return this.#with({ commands: [...this.state.commands, command] });
  }

  semantic(profile: RoutingProfile<I>): ModuleRouting<I> {
    if (this.state.profile !== undefined) throw new Error("a module declares one routing profile");
    return this.#with({ profile });
  }

  shortcut(labelKey: string, input: I): ModuleRouting<I> {
    return this.#with({ shortcuts: [...this.state.shortcuts, { labelKey, input }] });
  }

  choice(labelKey: string): ModuleRouting<I> {
    return this.#with({ choiceKey: labelKey });
  }

  button(adapter: ButtonAdapter<I>): ModuleRouting<I> {
    return this.#with({ button: adapter });
  }

  #with(change: Partial<RoutingState<I>>): ModuleRouting<I> {
    return new ModuleRouting<I>({ ...this.state, ...change });
  }
}

export type AnyModuleRouting = ModuleRouting<unknown>;
