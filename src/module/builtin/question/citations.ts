/** The result of checking an answer's citation numbers against what the server knows is valid. */
export interface CheckedCitations {
  readonly kept: number[];
  /** True when at least one cited number was removed. */
  readonly removed: boolean;
}

/**
 * Keeps the cited numbers the server accepts (`valid(n)`: in range and really read), each once, in order;
 * anything else is removed and reported, never trusted.
 */
export const checkCitations = (cited: readonly number[], valid: (n: number) => boolean): CheckedCitations => {
  const kept: number[] = [];
  let removed = false;
  for (const n of cited) {
    if (Number.isInteger(n) && valid(n) && !kept.includes(n)) kept.push(n);
    else if (!kept.includes(n)) removed = true;
  }
  return { kept, removed };
};
