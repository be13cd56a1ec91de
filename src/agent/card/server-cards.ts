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

interface IssuedPage {
  readonly ref: CardRef;
  readonly buttons: readonly CardButton[];
}

/**
 * The server's record of the card pages it sent to one player, so a click is honoured only when it names the
 * current page of a card this player was shown and one of that page's own buttons: a client cannot forge an
 * action, replay an old page or click another player's card. Bounded: the oldest cards are forgotten first.
 */
export class ServerCards {
  readonly #pages = new Map<string, IssuedPage>();

  constructor(private readonly maxCards = 128) {}

  /** Records a new card and returns the SHOW update to send. */
  show(view: CardView): CardUpdate {
    const ref = newCardRef();
    this.#remember({ ref, buttons: view.buttons });
    return showCard(ref, view);
  }

  /** Records the next page of a card; undefined when the card is unknown (forgotten or never shown). */
  replace(id: string, view: CardView): CardUpdate | undefined {
    const current = this.#pages.get(id);
    if (current === undefined) return undefined;
    const ref = nextVersion(current.ref);
    this.#remember({ ref, buttons: view.buttons });
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
  resolve(click: CardClick): Validation<CardButton> {
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
  button(card: CardRef, index: number): Validation<CardButton> {
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
