/** One line of player text split for the command tree. */
export interface CommandText {
  /** Started with a slash: a failed parse is an error, never plain text. */
  readonly explicit: boolean;
  /** The root literal that prefixed it (`system`), if any. */
  readonly root: string | undefined;
  /** The first token, NFKC-normalised and lower-cased ("" when there is none). */
  readonly head: string;
  /** What the dispatcher parses: the normalised head, one space, the rest exactly as typed. */
  readonly normalized: string;
}

const SLASH = /^[/／]/;

/**
 * Splits a line into root, head and rest. Only the literal head is normalised (full-width and case); argument
 * text keeps its form. With `keepTrailing` (completion), a trailing space is kept so the next token completes.
 */
export const splitCommandText = (
  text: string,
  roots: readonly string[],
  keepTrailing = false,
): CommandText => {
  let body = keepTrailing ? text.replace(/^\s+/, "") : text.trim();
  const explicit = SLASH.test(body);
  if (explicit) body = body.slice(1);
  let [head, rest] = cut(body);
  let root: string | undefined;
  if (roots.includes(head) && (rest !== undefined || explicit)) {
    root = head;
    [head, rest] = cut(rest ?? "");
  }
  const normalized = rest === undefined ? head : `${head} ${rest}`;
  return { explicit, root, head, normalized };
};

const cut = (body: string): [string, string | undefined] => {
  const match = /[\s\u3000]/.exec(body);
  if (match === null) return [normalizeHead(body), undefined];
  const rest = body.slice(match.index).replace(/^[\s\u3000]+/, "");
  return [normalizeHead(body.slice(0, match.index)), rest];
};

const normalizeHead = (head: string): string => head.normalize("NFKC").toLowerCase();
