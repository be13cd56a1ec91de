import { inputSignature } from "./input-signature.js";

/** One capability as the model router offers it: its id, what it does, its input signature. */
export interface CatalogEntry {
  readonly capabilityId: string;
  /** What it does: the description's first clause, cut to fit the catalog's byte budget. */
  readonly description: string;
  /** The input signature, e.g. `{query:string}` or `{field?:'health'|'food'}`; absent when it takes none. */
  readonly input?: string;
  /** Offered only for a request that asks for exactly it. */
  readonly explicitOnly?: boolean;
}

/** The namespace left out of capability ids in the catalog (`check_in` stands for `system:check_in`). */
const DEFAULT_NAMESPACE = "system:";

/** UTF-8 bytes one router call for a short request may take: the system prompt, the catalog and the request. */
export const ROUTER_CALL_BYTES = 2_048;

/** What a call takes besides the prompt and the catalog lines: the user object's keys and a short request. */
const CALL_RESERVE = 160;

/** UTF-8 bytes the capability lines may take at most (JSON-encoded), whatever their number. */
export const CATALOG_BYTES = 1_300;

/** The catalog's budget beside a system prompt of `systemBytes`: what is left of a 2 KB call, at most CATALOG_BYTES. */
export const catalogBudget = (systemBytes: number): number =>
  Math.min(CATALOG_BYTES, ROUTER_CALL_BYTES - systemBytes - CALL_RESERVE);

/** The shortest description a line keeps when descriptions are cut to fit the budget. */
const MIN_DESCRIPTION = 12;

/** The id as the catalog shows it: without the default namespace. */
export const shortCapabilityId = (id: string): string =>
  id.startsWith(DEFAULT_NAMESPACE) ? id.slice(DEFAULT_NAMESPACE.length) : id;

/** The id a model named, as the registry knows it: a bare id is in the default namespace. */
export const fullCapabilityId = (id: string): string => (id.includes(":") ? id : `${DEFAULT_NAMESPACE}${id}`);

const SHORT_TYPES: Readonly<Record<string, string>> = {
  string: "str",
  integer: "int",
  number: "num",
  boolean: "bool",
};

/**
 * The input signature of an action's JSON Schema in the catalog's short form: no spaces, short type names
 * (`str`, `int`, `num`, `bool`) and enum words unquoted (`field?:health|food`); undefined when it takes no input.
 */
export const compactSignature = (schema: unknown): string | undefined => {
  const signature = inputSignature(schema)
    .replace(/: /gu, ":")
    .replace(/, /gu, ",")
    .replace(
      /(?<=[:|(]|^)(string|integer|number|boolean)(?=[,}|)[]|$)/gu,
      (type) => SHORT_TYPES[type] ?? type,
    )
    .replace(/'([a-z_][a-z0-9_]*)'/gu, "$1");
  return signature === "{}" ? undefined : signature;
};

/** A description's first clause ("Look up a Minecraft item: id, names…" → "Look up a Minecraft item"). */
export const briefOf = (description: string): string => {
  const text = description.trim().replace(/\s+/gu, " ");
  const cut = /[:;(]|\. /u.exec(text);
  const brief = cut !== null && cut.index >= 12 ? text.slice(0, cut.index) : text;
  return brief.replace(/[.\s,]+$/u, "");
};

/** A line of the catalog: `!` for explicit-only, the short id, the signature, then what it does. */
const lineOf = (entry: CatalogEntry, description: string): string =>
  `${entry.explicitOnly === true ? "!" : ""}${shortCapabilityId(entry.capabilityId)}${entry.input ?? ""}: ${description}`;

/** `text` cut at a word boundary to at most `limit` characters, marked with `…` when cut. */
const cutTo = (text: string, limit: number): string => {
  const chars = [...text];
  if (chars.length <= limit) return text;
  const head = chars.slice(0, limit - 1).join("");
  const space = head.lastIndexOf(" ");
  return `${(space >= MIN_DESCRIPTION / 2 ? head.slice(0, space) : head).trimEnd()}…`;
};

const jsonBytes = (lines: readonly string[]): number => Buffer.byteLength(JSON.stringify(lines), "utf8");

/**
 * The catalog lines sent to the model, within `budget` bytes when the ids and signatures allow it: every line is
 * cut to the longest common length that fits, by shortening its description (never below a few words), so a
 * line with a long signature gives up its own words and twenty capabilities cost what a handful did.
 */
export const catalogLines = (entries: readonly CatalogEntry[], budget = CATALOG_BYTES): string[] => {
  const full = entries.map((entry) => lineOf(entry, entry.description));
  if (jsonBytes(full) <= budget) return full;
  const within = (limit: number): string[] =>
    entries.map((entry, index) => {
      const line = full[index] as string;
      if ([...line].length <= limit) return line;
      const head = [...line].length - [...entry.description].length;
      return lineOf(entry, cutTo(entry.description, Math.max(MIN_DESCRIPTION, limit - head)));
    });
  let limit = Math.max(...full.map((line) => [...line].length));
  let lines = full;
  while (limit > MIN_DESCRIPTION && jsonBytes(lines) > budget) lines = within(--limit);
  return lines;
};
