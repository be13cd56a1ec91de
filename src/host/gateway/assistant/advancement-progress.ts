/** One advancement as the `advancements` packet defines it: what must be done, and whether the player sees it. */
interface AdvancementDefinition {
  /** Groups of criterion names: the advancement is done when every group has one criterion done. */
  readonly requirements: readonly (readonly string[])[];
  /** It has display data (a title and a frame): a recipe unlock or another hidden helper has none. */
  readonly shown: boolean;
}

/** The fields of the `advancements` packet this reads (minecraft-protocol's names, every version from 1.20). */
export interface AdvancementsPacket {
  readonly reset?: unknown;
  readonly advancementMapping?: unknown;
  readonly identifiers?: unknown;
  readonly progressMapping?: unknown;
}

const isDone = (definition: AdvancementDefinition, done: ReadonlySet<string>): boolean =>
  definition.requirements.length > 0 &&
  definition.requirements.every((group) => group.some((criterion) => done.has(criterion)));

const entries = (value: unknown): readonly { readonly key: unknown; readonly value: unknown }[] =>
  Array.isArray(value) ? (value as { key: unknown; value: unknown }[]) : [];

/**
 * A player's advancements as the backend told their client: definitions and each one's done criteria, as the
 * vanilla client keeps them. `apply` answers which shown advancements the packet completed. A `reset` packet
 * (the one sent at join, holding what was done before) completes nothing: only a change after it does.
 */
export class AdvancementProgress {
  readonly #definitions = new Map<string, AdvancementDefinition>();
  readonly #done = new Map<string, ReadonlySet<string>>();

  /** Applies one packet; the ids of shown advancements that were not done before it and are now. */
  apply(packet: AdvancementsPacket): string[] {
    const reset = packet.reset === true;
    const before = new Set(reset ? [] : this.#completed());
    if (reset) {
      this.#definitions.clear();
      this.#done.clear();
    }
    for (const { key, value } of entries(packet.advancementMapping)) {
      if (typeof key !== "string") continue;
      const definition = value as { displayData?: unknown; requirements?: unknown };
      const requirements = Array.isArray(definition.requirements)
        ? definition.requirements.map((group) =>
            Array.isArray(group) ? group.filter((name): name is string => typeof name === "string") : [],
          )
        : [];
      this.#definitions.set(key, { requirements, shown: definition.displayData != null });
    }
    if (Array.isArray(packet.identifiers))
      for (const key of packet.identifiers) {
        this.#definitions.delete(key as string);
        this.#done.delete(key as string);
      }
    // each entry is the advancement's whole progress: a criterion without a date is not (or no longer) done
    for (const { key, value } of entries(packet.progressMapping)) {
      if (typeof key !== "string" || !Array.isArray(value)) continue;
      const done = new Set<string>();
      for (const criterion of value as { criterionIdentifier?: unknown; criterionProgress?: unknown }[])
        if (typeof criterion.criterionIdentifier === "string" && criterion.criterionProgress != null)
          done.add(criterion.criterionIdentifier);
      this.#done.set(key, done);
    }
    if (reset) return [];
    return this.#completed().filter((key) => !before.has(key));
  }

  /** The shown advancements done now, in the order they were defined. */
  #completed(): string[] {
    const completed: string[] = [];
    for (const [key, definition] of this.#definitions)
      if (definition.shown && isDone(definition, this.#done.get(key) ?? new Set())) completed.push(key);
    return completed;
  }
}
