import { invalid, type Validation, valid } from "../../util/validation.js";
import type { CardButton, CardView } from "./card-builder.js";
import { type CardRef, newCardRef, nextVersion } from "./card-ref.js";
import { type CardUpdate, removeCard, replaceCard, showCard } from "./card-update.js";

/** A click as a client reports it: the page it came from and the button's action and arguments. */
export interface CardClick {
  readonly card: CardRef;
  readonly action: string;
  readonly args: readonly string[];
}

/** What a click on a button runs: its action and arguments (the label and hover text are the client's). */
export type ButtonTarget = Pick<CardButton, "action" | "args">;

interface IssuedPage {
  readonly ref: CardRef;
  readonly buttons: readonly ButtonTarget[];
}

/**
 * Cards remembered per player by default: as many as the web panel shows (ClientCards), so a click the panel can
 * still offer is honoured. Each online player holds one such store; with 50 players under load the stores were
 * the largest retained growth while they kept 128 whole cards each.
 */
export const DEFAULT_MAX_SERVER_CARDS = 64;

/** The part of a page's buttons a click needs; labels and hover texts are dropped (they are most of a card). */
const targetsOf = (buttons: readonly CardButton[]): readonly ButtonTarget[] =>
  buttons.map((button) => ({ action: button.action, args: button.args }));

/**
 * The server's record of the card pages it sent to one player, so a click is honoured only when it names the
 * current page of a card this player was shown and one of that page's own buttons: a client cannot forge an
 * action, replay an old page or click another player's card. Bounded: the oldest cards are forgotten first, and
 * a page keeps only what its buttons run (action and arguments).
 */
export class ServerCards {
  readonly #pages = new Map<string, IssuedPage>();

  constructor(private readonly maxCards = DEFAULT_MAX_SERVER_CARDS) {}

  /** Records a new card and returns the SHOW update to send. */
  show(view: CardView): CardUpdate {
    const ref = newCardRef();
    this.#remember({ ref, buttons: targetsOf(view.buttons) });
    return showCard(ref, view);
  }

  /** Records the next page of a card; undefined when the card is unknown (forgotten or never shown). */
  replace(id: string, view: CardView): CardUpdate | undefined {
    const current = this.#pages.get(id);
    if (current === undefined) return undefined;
    const ref = nextVersion(current.ref);
    this.#remember({ ref, buttons: targetsOf(view.buttons) });
    return replaceCard(ref, view);
  }

  /** Forgets a card and returns the REMOVE update; undefined when unknown. */
  remove(id: string): CardUpdate | undefined {
    const current = this.#pages.get(id);
    if (current === undefined) return undefined;
    this.#pages.delete(id);
    return removeCard(current.ref);
  }

  /** The button a click pressed, or why the click is refused (unknown card, old page, no such button). */
  resolve(click: CardClick): Validation<ButtonTarget> {
    const page = this.#pages.get(click.card.id);
    if (page === undefined) return invalid("unknown card");
    if (page.ref.version !== click.card.version) return invalid("the card has a newer page");
    const button = page.buttons.find(
      (candidate) =>
        candidate.action === click.action &&
        candidate.args.length === click.args.length &&
        candidate.args.every((arg, index) => arg === click.args[index]),
    );
    return button === undefined ? invalid("no such button on this card") : valid(button);
  }

  /**
   * The button at `index` of the current page, for chat clicks that name a button by position (chat commands are
   * limited to 256 characters, too short for some button arguments).
   */
  button(card: CardRef, index: number): Validation<ButtonTarget> {
    const page = this.#pages.get(card.id);
    if (page === undefined) return invalid("unknown card");
    if (page.ref.version !== card.version) return invalid("the card has a newer page");
    const button = Number.isInteger(index) ? page.buttons[index] : undefined;
    return button === undefined ? invalid("no such button on this card") : valid(button);
  }

  #remember(page: IssuedPage): void {
    this.#pages.delete(page.ref.id);
    this.#pages.set(page.ref.id, page);
    for (const oldest of this.#pages.keys()) {
      if (this.#pages.size <= this.maxCards) break;
      this.#pages.delete(oldest);
    }
  }
}
