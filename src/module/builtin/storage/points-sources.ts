import { ContextType } from "../../../agent/module/context-type.js";

/** The event of a way to earn points that is no game event: the daily check-in itself (`/system checkin`). */
export const DAILY_CHECK_IN = "system:check_in";

/**
 * One way a player earns points, as the earning card lists it: what gives them, how many and how often. The check-in
 * feature describes its daily points; the server's advancement rules describe their `system:points_bonus` rules.
 */
export interface EarningWay {
  /** A game event type (`system:playtime`, `system:kill`…) or {@link DAILY_CHECK_IN}. */
  readonly event: string;
  readonly points: number;
  /** The event's conditions as the rule gives them (`streak` ≥ 7, the quest, the entity…). */
  readonly conditions: Readonly<Record<string, string | number>>;
  /** once: per player; daily: once a local day; always: each time. */
  readonly repeat: "once" | "daily" | "always";
  /** The feature a player must have for this way to be theirs (the check-in); none: every player. */
  readonly feature?: string;
}

/**
 * Who gives points, and how: each source (a feature, the advancement rules) sets what it gives under its own name,
 * read again at every request so that a reload's new config or rules show at once. A source set again replaces its
 * earlier ways; a source that throws is skipped, never the card.
 */
export class PointsSources {
  readonly #sources = new Map<string, () => readonly EarningWay[]>();

  /** Sets (or replaces) what the source named `name` gives. */
  set(name: string, ways: () => readonly EarningWay[]): void {
    this.#sources.set(name, ways);
  }

  /** Every way of every source, in the order the sources were first set; a failing source gives none. */
  ways(): EarningWay[] {
    const ways: EarningWay[] = [];
    for (const source of this.#sources.values()) {
      try {
        ways.push(...source());
      } catch {
        // a source is a description: its failure hides its lines, never the card
      }
    }
    return ways;
  }
}

/** The server's {@link PointsSources}, shared by the features that give points and the earning workflow. */
export const POINTS_SOURCES = ContextType.of<PointsSources>("system:points_sources");
