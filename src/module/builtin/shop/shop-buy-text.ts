import { MAX_COUNT } from "./shop-commerce.js";

/** A purchase's product and count as a player words it. */
export interface QuoteInput {
  readonly item: string;
  readonly count: number;
}

/** `<entry|item> [count]` or `<count> <entry|item>` as typed after `/system buy` (`买 5 面包`, `buy bread 5`). */
export const parseBuy = (text: string): QuoteInput | undefined => {
  const words = text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== "");
  if (words.length === 0) return undefined;
  const number = (word: string | undefined): boolean => word !== undefined && /^\d{1,4}$/.test(word);
  let count = 1;
  let rest = words;
  if (words.length > 1 && number(words.at(-1))) {
    count = Number(words.at(-1));
    rest = words.slice(0, -1);
  } else if (words.length > 1 && number(words[0])) {
    count = Number(words[0]);
    rest = words.slice(1);
  }
  // "10个面包": a count written onto the name with a measure word
  const joined = /^(\d{1,4})\s*[个块根把张组瓶只份]\s*(.+)$/u.exec(rest.join(" "));
  if (joined?.[1] !== undefined && joined[2] !== undefined && count === 1) {
    count = Number(joined[1]);
    rest = [joined[2]];
  }
  const item = rest.join(" ");
  return item !== "" && count >= 1 && count <= MAX_COUNT ? { item, count } : undefined;
};

/**
 * The product and count of a purchase said in plain words ("I want to buy 10 bread", "我想买10个面包"): the words
 * after the verb, as `/system buy` reads them. Undefined when the text names no purchase.
 */
export const purchaseIn = (text: string): QuoteInput | undefined => {
  const trimmed = text.trim().replace(/[.!?。！？]+$/u, "");
  const english = /\b(?:buy|purchase|order)\s+(?:(?:an?|one|some)\s+)?(.+)$/iu.exec(trimmed);
  const chinese = /(?:购买|买)(?:一个|一些|点)?\s*(.+)$/u.exec(trimmed);
  const rest = (english ?? chinese)?.[1]?.trim();
  return rest === undefined || rest === "" ? undefined : parseBuy(rest);
};

/** A purchase to quote is one to make now: what one already bought ("what did i buy", "我买过什么") is the orders'. */
export const BUYING_NOW =
  /^(?!.*(?:\b(?:did|have) i (?:buy|order|purchase)|\bbought\b|\bpurchased\b|买过|买了|我买的))(?=.*(?:买|购|\bbuy|\bpurchas|\border))/;
