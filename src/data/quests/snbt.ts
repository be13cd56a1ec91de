/**
 * SNBT as FTB Quests writes it: compounds whose entries are separated by newlines or commas, lists, typed arrays
 * whose elements may carry their suffix (`[L;256000000L]`, `[B;1b,0b]`), quoted and bare strings, numbers with
 * type suffixes and `true`/`false`. Values map to JSON-like JavaScript: compounds to plain objects, longs to
 * `bigint` (64-bit ids and table links must stay exact), every other number to `number`.
 */
export type SnbtValue = string | number | bigint | boolean | SnbtValue[] | SnbtCompound;
export interface SnbtCompound {
  readonly [key: string]: SnbtValue;
}

/** A parse error with the 1-based line and column where it was found. */
export class SnbtError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
    this.name = "SnbtError";
  }
}

const BARE = /[0-9A-Za-z_\-.+]/;
const NUMBER = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)([bslfdBSLFD]?)$/;
const INTEGER = /^[-+]?\d+$/;

/** Parses one SNBT document (a compound, usually). Throws SnbtError naming line and column. */
export const parseSnbt = (text: string): SnbtValue => {
  const parser = new Parser(text);
  const value = parser.value();
  parser.skipSpace();
  if (!parser.done()) parser.fail("unexpected text after the value");
  return value;
};

class Parser {
  #at = 0;

  constructor(private readonly text: string) {
    // a byte-order mark some editors write
    if (text.charCodeAt(0) === 0xfeff) this.#at = 1;
  }

  done(): boolean {
    return this.#at >= this.text.length;
  }

  fail(reason: string, at = this.#at): never {
    let line = 1;
    let start = 0;
    for (let index = 0; index < at && index < this.text.length; index++)
      if (this.text[index] === "\n") {
        line++;
        start = index + 1;
      }
    throw new SnbtError(reason, line, at - start + 1);
  }

  /** Skips whitespace and `//` line comments (hand-edited files have them). */
  skipSpace(): void {
    for (;;) {
      const char = this.text[this.#at];
      if (char === undefined) return;
      if (char === " " || char === "\t" || char === "\n" || char === "\r") this.#at++;
      else if (char === "/" && this.text[this.#at + 1] === "/") this.#skipLine();
      else return;
    }
  }

  #skipLine(): void {
    while (this.#at < this.text.length && this.text[this.#at] !== "\n") this.#at++;
  }

  /** Skips space and at most one comma between entries (FTB Quests omits commas; others write them). */
  #separator(): void {
    this.skipSpace();
    if (this.text[this.#at] === ",") {
      this.#at++;
      this.skipSpace();
    }
  }

  value(): SnbtValue {
    this.skipSpace();
    const char = this.text[this.#at];
    if (char === undefined) this.fail("unexpected end of file");
    if (char === "{") return this.#compound();
    if (char === "[") return this.#list();
    if (char === '"' || char === "'") return this.#quoted();
    return this.#bare();
  }

  #compound(): SnbtCompound {
    const open = this.#at;
    this.#at++;
    const result: Record<string, SnbtValue> = Object.create(null);
    this.skipSpace();
    while (this.text[this.#at] !== "}") {
      if (this.done()) this.fail("compound is not closed", open);
      const key = this.#key();
      this.skipSpace();
      if (this.text[this.#at] !== ":") this.fail(`expected ':' after key ${JSON.stringify(key)}`);
      this.#at++;
      result[key] = this.value();
      this.#separator();
    }
    this.#at++;
    return result;
  }

  #key(): string {
    const char = this.text[this.#at];
    if (char === '"' || char === "'") return this.#quoted();
    const start = this.#at;
    while (this.#at < this.text.length && BARE.test(this.text[this.#at] as string)) this.#at++;
    // an empty bare key (`{ : "BOOLEAN" }`) occurs in real packs: it is the key ""
    if (this.#at === start && char !== ":") this.fail(`expected a key, found ${JSON.stringify(char)}`);
    return this.text.slice(start, this.#at);
  }

  #list(): SnbtValue[] {
    const open = this.#at;
    this.#at++;
    this.skipSpace();
    const typed = /^([BIL]);/.exec(this.text.slice(this.#at, this.#at + 2));
    if (typed !== null) {
      this.#at += 2;
      return this.#typedArray(typed[1] as "B" | "I" | "L", open);
    }
    const items: SnbtValue[] = [];
    while (this.text[this.#at] !== "]") {
      if (this.done()) this.fail("list is not closed", open);
      items.push(this.value());
      this.#separator();
    }
    this.#at++;
    return items;
  }

  /** `[B;…]`, `[I;…]`, `[L;…]`: integers, each optionally with its own suffix (FTB writes `[L;256000000L]`). */
  #typedArray(kind: "B" | "I" | "L", open: number): SnbtValue[] {
    const items: SnbtValue[] = [];
    this.skipSpace();
    while (this.text[this.#at] !== "]") {
      if (this.done()) this.fail("array is not closed", open);
      const start = this.#at;
      const token = this.#token();
      const match = /^([-+]?\d+)([bBlLsS]?)$/.exec(token);
      if (match === null)
        this.fail(`${JSON.stringify(token)} is not an integer of a [${kind};] array`, start);
      const digits = match[1] as string;
      items.push(kind === "L" ? BigInt(digits) : Number(digits));
      this.#separator();
    }
    this.#at++;
    return items;
  }

  #token(): string {
    const start = this.#at;
    while (this.#at < this.text.length && BARE.test(this.text[this.#at] as string)) this.#at++;
    if (this.#at === start) this.fail(`unexpected ${JSON.stringify(this.text[this.#at])}`);
    return this.text.slice(start, this.#at);
  }

  #quoted(): string {
    const quote = this.text[this.#at];
    const open = this.#at;
    this.#at++;
    let result = "";
    for (;;) {
      const char = this.text[this.#at];
      if (char === undefined) this.fail("string is not closed", open);
      this.#at++;
      if (char === quote) return result;
      if (char === "\\") {
        const next = this.text[this.#at];
        this.#at++;
        if (next === "n") result += "\n";
        else if (next === "t") result += "\t";
        else if (next === "r") result += "\r";
        else if (next === "u") {
          const hex = this.text.slice(this.#at, this.#at + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid \\u escape");
          result += String.fromCharCode(Number.parseInt(hex, 16));
          this.#at += 4;
        } else if (next === undefined) this.fail("string is not closed", open);
        // `\&` (FTB's escaped colour marker) and unknown escapes keep the backslash: markup handles them
        else if (next === '"' || next === "'" || next === "\\") result += next;
        else result += `\\${next}`;
      } else result += char;
    }
  }

  #bare(): SnbtValue {
    const start = this.#at;
    const token = this.#token();
    if (token === "true") return true;
    if (token === "false") return false;
    const number = NUMBER.exec(token);
    if (number === null) return token;
    const [, digits = "", suffix = ""] = number;
    const kind = suffix.toLowerCase();
    if (kind === "l") {
      if (!INTEGER.test(digits)) this.fail(`${JSON.stringify(token)} is not a long`, start);
      return BigInt(digits);
    }
    if ((kind === "b" || kind === "s") && !INTEGER.test(digits))
      this.fail(`${JSON.stringify(token)} is not an integer`, start);
    return Number(digits);
  }
}
