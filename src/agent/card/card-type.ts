import type { Codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import type { CardBuilder } from "./card-builder.js";

/**
 * A registered card type: its id, the codec of its data and how that data becomes a card. Card data is plain
 * codec'd data (it crosses the network and the save), so the building lives here, not on the data.
 */
export class CardType<T> {
  private constructor(
    readonly id: Identifier,
    readonly codec: Codec<T>,
    readonly build: (data: T) => CardBuilder,
  ) {}

  static of<T>(id: Identifier | string, codec: Codec<T>, build: (data: T) => CardBuilder): CardType<T> {
    return new CardType(typeof id === "string" ? Identifier.parse(id) : id, codec, build);
  }

  /** Card data of this type. */
  card(data: T): CardData<T> {
    return { type: this, data };
  }

  toString(): string {
    return this.id.toString();
  }
}

/** One card's data tagged with its type (mirrors AgentAction {type, input}). */
export interface CardData<T = unknown> {
  readonly type: CardType<T>;
  readonly data: T;
}

/** Builds the presentation of card data; the only way a card becomes buttons, text and speech. */
export const buildCard = <T>(card: CardData<T>): CardBuilder => card.type.build(card.data);
