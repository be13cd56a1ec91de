/** Collects the values of a statement built piece by piece, handing out their `$n` placeholders. */
export class SqlBuilder {
  readonly values: unknown[] = [];

  /** The placeholder of a value (never the value itself in the text: no injection). */
  value(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
