import type { Json } from "../../util/codec.js";
import type { Presentation } from "../agent-result.js";
import { literal, type Text, translatable } from "../text.js";
import type { CardRegistry } from "./card-registry.js";
import type { CardData, CardType } from "./card-type.js";

/** The translation that joins two lines (`%s\n%s`); a card body of many lines is a chain of it. */
export const LINES_KEY = "system.card.lines";
/** The translation that joins two list items (`%s, %s` / `%s、%s`). */
export const LIST_KEY = "system.card.list";

/**
 * One Text from many. A translation has a fixed number of placeholders, so a list of unknown length is folded
 * into nested pairs of `key` (two placeholders) instead of being concatenated into a key.
 */
export const joinTexts = (texts: readonly Text[], key: string): Text => {
  if (texts.length === 0) return literal("");
  let joined = texts[texts.length - 1] as Text;
  for (let index = texts.length - 2; index >= 0; index--)
    joined = translatable(key, texts[index] as Text, joined);
  return joined;
};

/** One Text of several lines. */
export const joinLines = (lines: readonly Text[]): Text => joinTexts(lines, LINES_KEY);

/**
 * The Presentation of card data (what an AgentResult carries); encoding needs no registry. `data` is encoded when
 * first read (a history write, the replay cache, the panel), not on the reply's way: the presenter builds from the
 * typed `card`.
 */
export const present = <T>(card: CardData<T>): Presentation => lazyPresentation(card);

/** A Presentation whose `data` is the card's encoding, made once when first read. */
export const lazyPresentation = <T>(card: CardData<T>): Presentation => {
  let data: Json | undefined;
  return {
    type: card.type.id.toString(),
    get data(): Json {
      data ??= card.type.codec.encode(card.data);
      return data;
    },
    card,
  };
};

/** Registers a card type the registry does not know yet (a feature installed twice shares it). */
export const registerCardType = <T>(registry: CardRegistry | undefined, type: CardType<T>): void => {
  if (registry !== undefined && registry.get(type.id) === undefined) registry.register(type);
};
