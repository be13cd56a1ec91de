/** A player's web usage today. */
export interface WebUsage {
  readonly searches: number;
  readonly fetches: number;
}

const localDay = (millis: number): string => {
  const date = new Date(millis);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
};

/** Counts searches and fetches per player and local day (the day's counts reset at local midnight). */
export class SearchMeter {
  readonly #counts = new Map<string, { searches: number; fetches: number }>();
  #day = "";

  constructor(private readonly now: () => number = Date.now) {}

  today(playerId: string): WebUsage {
    this.#roll();
    const counts = this.#counts.get(playerId);
    return { searches: counts?.searches ?? 0, fetches: counts?.fetches ?? 0 };
  }

  add(playerId: string, kind: keyof WebUsage): void {
    this.#roll();
    const counts = this.#counts.get(playerId) ?? { searches: 0, fetches: 0 };
    counts[kind]++;
    this.#counts.set(playerId, counts);
  }

  #roll(): void {
    const day = localDay(this.now());
    if (day !== this.#day) {
      this.#day = day;
      this.#counts.clear();
    }
  }
}
