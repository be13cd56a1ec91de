import type { CardView } from "./card-builder.js";
import type { CardUpdate } from "./card-update.js";

/** A card currently shown by a client, at the version of its newest page. */
export interface ShownCard {
  readonly id: string;
  readonly version: number;
  readonly view: CardView;
}

/** What applying an update did: `stale` updates (older than what is known) change nothing. */
export type CardApplyOutcome = "shown" | "replaced" | "removed" | "stale";

/**
 * The client side of cards: SHOW / REPLACE / REMOVE by card id and version. Updates can arrive late or out of order
 * (a slow reply after a newer page), so a SHOW or REPLACE whose version is not newer than what the client knows for
 * that card (shown or removed) is ignored, and a REMOVE naming an older page than the one shown keeps it.
 * Bounded: the oldest cards and removal marks are forgotten first.
 */
export class ClientCards {
  readonly #shown = new Map<string, ShownCard>();
  readonly #removed = new Map<string, number>();

  constructor(
    private readonly options: { readonly maxCards: number; readonly maxRemoved: number } = {
      maxCards: 64,
      maxRemoved: 512,
    },
  ) {}

  apply(update: CardUpdate): CardApplyOutcome {
    const { id, version } = update.ref;
    const shown = this.#shown.get(id)?.version;
    const removed = this.#removed.get(id);
    if (removed !== undefined && version <= removed) return "stale";
    if (update.op === "REMOVE") {
      // Removing names the page it removes; a newer page shown since then stays.
      if (shown !== undefined && version < shown) return "stale";
      this.#shown.delete(id);
      this.#markRemoved(id, version);
      return "removed";
    }
    if (shown !== undefined && version <= shown) return "stale";
    const existed = shown !== undefined;
    this.#removed.delete(id);
    this.#show({ id, version, view: update.view });
    return existed ? "replaced" : "shown";
  }

  get(id: string): ShownCard | undefined {
    return this.#shown.get(id);
  }

  /** Shown cards, oldest first. */
  cards(): ShownCard[] {
    return [...this.#shown.values()];
  }

  #show(card: ShownCard): void {
    this.#shown.set(card.id, card); // a replaced page keeps its place
    for (const oldest of this.#shown.values()) {
      if (this.#shown.size <= this.options.maxCards) break;
      // A card that scrolled out still refuses its old pages; a newer page shows it again.
      this.#shown.delete(oldest.id);
      this.#markRemoved(oldest.id, oldest.version);
    }
  }

  #markRemoved(id: string, version: number): void {
    this.#removed.delete(id);
    this.#removed.set(id, version);
    for (const oldest of this.#removed.keys()) {
      if (this.#removed.size <= this.options.maxRemoved) break;
      this.#removed.delete(oldest);
    }
  }
}
