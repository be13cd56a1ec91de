import type { SearchResult } from "./search-provider.js";

/** A search result numbered for citation within one request. */
export interface NumberedSource extends SearchResult {
  readonly number: number;
}

/** A URL as the session compares it: parsed, fragment dropped; undefined when it is not a URL. */
export const normalizeUrl = (text: string): string | undefined => {
  try {
    const url = new URL(text);
    url.hash = "";
    return url.href;
  } catch {
    return undefined;
  }
};

/**
 * The evidence of one request's web research: every result its searches returned, numbered 1… in the order
 * first seen, and which of them were fetched. Only these URLs may be fetched; only these numbers may be cited.
 */
export class SearchSession {
  readonly #sources: NumberedSource[] = [];
  readonly #byUrl = new Map<string, NumberedSource>();
  readonly #fetched = new Set<number>();

  /** Records results and returns them numbered (a URL seen before keeps its number). */
  add(results: readonly SearchResult[]): NumberedSource[] {
    return results.flatMap((result) => {
      const key = normalizeUrl(result.url);
      if (key === undefined) return [];
      const known = this.#byUrl.get(key);
      if (known !== undefined) return [known];
      const numbered = { ...result, number: this.#sources.length + 1 };
      this.#sources.push(numbered);
      this.#byUrl.set(key, numbered);
      return [numbered];
    });
  }

  /** The source a URL was returned as, if this request's searches returned it. */
  find(url: string): NumberedSource | undefined {
    const key = normalizeUrl(url);
    return key === undefined ? undefined : this.#byUrl.get(key);
  }

  markFetched(number: number): void {
    this.#fetched.add(number);
  }

  wasFetched(number: number): boolean {
    return this.#fetched.has(number);
  }

  source(number: number): NumberedSource | undefined {
    return this.#sources[number - 1];
  }

  sources(): readonly NumberedSource[] {
    return [...this.#sources];
  }
}
