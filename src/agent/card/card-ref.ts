import { randomUUID } from "node:crypto";

/** Identifies one page of a card: the card's id (a UUID) and the version of its content (grows on every update). */
export interface CardRef {
  readonly id: string;
  readonly version: number;
}

/** A new card's first page. */
export const newCardRef = (): CardRef => ({ id: randomUUID(), version: 0 });

/** The next page of the same card. */
export const nextVersion = (ref: CardRef): CardRef => ({ id: ref.id, version: ref.version + 1 });

/** Compact text form `<id>@<version>` used in chat click commands. */
export const formatCardRef = (ref: CardRef): string => `${ref.id}@${ref.version}`;

const REF_PATTERN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@(\d{1,9})$/;

/** Parses `<id>@<version>` from untrusted text; undefined when malformed. */
export const parseCardRef = (text: string): CardRef | undefined => {
  const match = REF_PATTERN.exec(text.toLowerCase());
  if (match === null) return undefined;
  return { id: match[1]!, version: Number(match[2]) };
};
