const NAMESPACE = /^[a-z0-9_.-]+$/;
const PATH = /^[a-z0-9_./-]+$/;

/** A validated `namespace:path` id, used for every registered thing (modules, tools, actions, cards). */
export class Identifier {
  private constructor(
    readonly namespace: string,
    readonly path: string,
  ) {}

  /** Parses `namespace:path`; a bare `path` takes the `system` namespace. Throws on invalid text (programmer input). */
  static parse(text: string): Identifier {
    const parsed = Identifier.tryParse(text);
    if (parsed === undefined) throw new TypeError(`invalid identifier: ${JSON.stringify(text)}`);
    return parsed;
  }

  /** Parses untrusted text; returns undefined instead of throwing. */
  static tryParse(text: string): Identifier | undefined {
    if (typeof text !== "string" || text.length === 0 || text.length > 256) return undefined;
    const colon = text.indexOf(":");
    const namespace = colon < 0 ? "system" : text.slice(0, colon);
    const path = colon < 0 ? text : text.slice(colon + 1);
    if (!NAMESPACE.test(namespace) || !PATH.test(path)) return undefined;
    return new Identifier(namespace, path);
  }

  static of(namespace: string, path: string): Identifier {
    return Identifier.parse(`${namespace}:${path}`);
  }

  static isValid(text: string): boolean {
    return Identifier.tryParse(text) !== undefined;
  }

  equals(other: Identifier | string): boolean {
    return this.toString() === other.toString();
  }

  toString(): string {
    return `${this.namespace}:${this.path}`;
  }

  toJSON(): string {
    return this.toString();
  }
}
