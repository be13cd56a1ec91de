import type { Text } from "../text.js";

/**
 * Spoken narration of a card. The text is rendered in the player's language when it is narrated; `voice` names a
 * voice the client may know, else its default. `high` priority narration is shown large (a title in game) and
 * `interrupt` lets it cut off narration already playing; by default it is normal and waits its turn.
 */
export interface SpeechContent {
  readonly text: Text;
  readonly voice?: string;
  readonly priority?: "normal" | "high";
  readonly interrupt?: boolean;
}

/** How a card's narration is delivered (see SpeechContent). */
export interface SpeechOptions {
  readonly voice?: string;
  readonly priority?: "normal" | "high";
  readonly interrupt?: boolean;
}

/** A clickable button: the label is a translation key; a click sends a CardActionRequest with `action` and `args`. */
export interface CardButton {
  readonly labelKey: string;
  /** Arguments of the label translation (data, never concatenated into the key). */
  readonly labelArgs?: readonly string[];
  readonly action: string;
  readonly args: readonly string[];
  /**
   * What the button does, shown when the pointer rests on it ("Buy 1 Bread for 2 points"): a translation key and
   * its arguments. Without it a client shows the label, never the command behind the button.
   */
  readonly hoverKey?: string;
  readonly hoverArgs?: readonly string[];
}

/** What a client shows: template key, its arguments, buttons and optional speech. Plain data, safe to send. */
export interface CardView {
  readonly template: string;
  readonly arguments: readonly Text[];
  readonly buttons: readonly CardButton[];
  readonly speech?: SpeechContent;
  /** `lines`: each button on a line of its own (a menu such as help); a row by default. */
  readonly buttonLayout?: "lines";
}

/**
 * Collects a card's presentation without knowing any client: game chat, the web panel and speech each render
 * the built CardView their own way.
 */
export class CardBuilder {
  readonly #arguments: Text[] = [];
  readonly #buttons: CardButton[] = [];
  #speech: SpeechContent | undefined;
  #lines = false;

  private constructor(readonly template: string) {}

  /** A card whose body is the translation `template` formatted with `args`. */
  static of(template: string, ...args: readonly Text[]): CardBuilder {
    const builder = new CardBuilder(template);
    builder.#arguments.push(...args);
    return builder;
  }

  get arguments(): readonly Text[] {
    return [...this.#arguments];
  }
  get buttons(): readonly CardButton[] {
    return this.#buttons.map((button) => ({ ...button, args: [...button.args] }));
  }
  get speech(): SpeechContent | undefined {
    return this.#speech;
  }

  /** Appends template arguments. */
  argument(...args: readonly Text[]): this {
    this.#arguments.push(...args);
    return this;
  }

  /** Adds a button that runs `action` (a registered action id) with string arguments. */
  button(labelKey: string, action: string, ...args: readonly string[]): this {
    this.#buttons.push({ labelKey, action, args: [...args] });
    return this;
  }

  /** Adds a button whose label translation takes arguments. */
  labelledButton(button: CardButton): this {
    const { labelArgs, hoverArgs, ...rest } = button;
    this.#buttons.push({
      ...rest,
      ...(labelArgs === undefined || labelArgs.length === 0 ? {} : { labelArgs: [...labelArgs] }),
      ...(hoverArgs === undefined || hoverArgs.length === 0 ? {} : { hoverArgs: [...hoverArgs] }),
      args: [...rest.args],
    });
    return this;
  }

  /** Shows each button on a line of its own (a menu), instead of a row. */
  buttonsOnLines(): this {
    this.#lines = true;
    return this;
  }

  /** Sets what a client with speech reads aloud. */
  withSpeech(text: Text, options: SpeechOptions = {}): this {
    this.#speech = {
      text,
      ...(options.voice === undefined ? {} : { voice: options.voice }),
      ...(options.priority === undefined || options.priority === "normal"
        ? {}
        : { priority: options.priority }),
      ...(options.interrupt === true ? { interrupt: true } : {}),
    };
    return this;
  }

  /** An immutable snapshot for sending or rendering. */
  build(): CardView {
    const view: CardView = {
      template: this.template,
      arguments: this.arguments,
      buttons: this.buttons,
      ...(this.#lines ? { buttonLayout: "lines" as const } : {}),
    };
    return this.#speech === undefined ? view : { ...view, speech: this.#speech };
  }
}
