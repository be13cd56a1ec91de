import { describe, expect, it } from "vitest";
import { literal } from "../text.js";
import { CardBuilder } from "./card-builder.js";
import { newCardRef, nextVersion } from "./card-ref.js";
import { removeCard, replaceCard, showCard } from "./card-update.js";
import { ClientCards } from "./client-cards.js";

const page = (text: string) => CardBuilder.of("system.card.message", literal(text)).build();

describe("ClientCards", () => {
  it("shows, replaces and removes a card by id and version", () => {
    const cards = new ClientCards();
    const first = newCardRef();
    expect(cards.apply(showCard(first, page("page 1")))).toBe("shown");
    const second = nextVersion(first);
    expect(cards.apply(replaceCard(second, page("page 2")))).toBe("replaced");
    expect(cards.get(first.id)).toEqual({ id: first.id, version: 1, view: page("page 2") });
    expect(cards.apply(removeCard(second))).toBe("removed");
    expect(cards.cards()).toEqual([]);
  });

  it("a late (older) update never replaces a newer page", () => {
    const cards = new ClientCards();
    const v0 = newCardRef();
    const v1 = nextVersion(v0);
    const v2 = nextVersion(v1);
    cards.apply(showCard(v0, page("first")));
    cards.apply(replaceCard(v2, page("newest")));
    expect(cards.apply(replaceCard(v1, page("slow reply")))).toBe("stale");
    expect(cards.apply(showCard(v0, page("duplicate show")))).toBe("stale");
    expect(cards.apply(replaceCard(v2, page("same version again")))).toBe("stale");
    expect(cards.get(v0.id)?.view).toEqual(page("newest"));
  });

  it("a removal of an older page keeps the newer page; a removed card is not revived by late pages", () => {
    const cards = new ClientCards();
    const v0 = newCardRef();
    const v1 = nextVersion(v0);
    cards.apply(showCard(v0, page("first")));
    cards.apply(replaceCard(v1, page("second")));
    expect(cards.apply(removeCard(v0))).toBe("stale");
    expect(cards.get(v0.id)?.version).toBe(1);
    expect(cards.apply(removeCard(v1))).toBe("removed");
    expect(cards.apply(replaceCard(v1, page("late second")))).toBe("stale");
    expect(cards.apply(replaceCard(v0, page("late first")))).toBe("stale");
    expect(cards.get(v0.id)).toBeUndefined();
    expect(cards.apply(replaceCard(nextVersion(v1), page("a real new page")))).toBe("shown");
  });

  it("keeps display order on replace and forgets the oldest cards beyond its bound", () => {
    const cards = new ClientCards({ maxCards: 2, maxRemoved: 8 });
    const [a, b, c] = [newCardRef(), newCardRef(), newCardRef()];
    cards.apply(showCard(a, page("a")));
    cards.apply(showCard(b, page("b")));
    cards.apply(replaceCard(nextVersion(a), page("a2")));
    expect(cards.cards().map((card) => card.id)).toEqual([a.id, b.id]);
    cards.apply(showCard(c, page("c")));
    expect(cards.cards().map((card) => card.id)).toEqual([b.id, c.id]);
    // The forgotten card still refuses its old pages.
    expect(cards.apply(replaceCard(nextVersion(a), page("late a2")))).toBe("stale");
  });
});
