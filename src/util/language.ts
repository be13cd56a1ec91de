import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Translation tables by locale (`en_us`, `zh_cn`), loaded from `assets/<namespace>/lang/<locale>.json`. */
export class Languages {
  readonly #tables = new Map<string, Map<string, string>>();
  /** Table templates split at their placeholders (text, then an argument index, …), made on first use. */
  readonly #compiled = new Map<string, readonly (string | number)[]>();

  /** Merges every `lang/*.json` under `<root>/assets/<namespace>/`. Later roots override earlier ones. */
  static load(...roots: readonly string[]): Languages {
    const languages = new Languages();
    for (const root of roots) {
      const assets = join(root, "assets");
      let namespaces: string[];
      try {
        namespaces = readdirSync(assets);
      } catch {
        continue;
      }
      for (const namespace of namespaces) {
        const folder = join(assets, namespace, "lang");
        let files: string[];
        try {
          files = readdirSync(folder).filter((file) => file.endsWith(".json"));
        } catch {
          continue;
        }
        for (const file of files) {
          const table = JSON.parse(readFileSync(join(folder, file), "utf8")) as Record<string, string>;
          languages.add(file.slice(0, -".json".length), table);
        }
      }
    }
    return languages;
  }

  add(locale: string, table: Readonly<Record<string, string>>): void {
    const existing = this.#tables.get(locale) ?? new Map<string, string>();
    for (const [key, value] of Object.entries(table)) existing.set(key, value);
    this.#tables.set(locale, existing);
    this.#compiled.clear();
  }

  locales(): string[] {
    return [...this.#tables.keys()];
  }

  keys(locale: string): Set<string> {
    return new Set(this.#tables.get(locale)?.keys() ?? []);
  }

  has(locale: string, key: string): boolean {
    return this.#tables.get(locale)?.has(key) ?? false;
  }

  /** Formats a key: `%s` placeholders in order, `%1$s` by position. Falls back to en_us, then to the key. */
  format(locale: string, key: string, args: readonly string[]): string {
    const template =
      this.#tables.get(normalizeLocale(locale))?.get(key) ?? this.#tables.get("en_us")?.get(key);
    // a template of the tables is split once; a missing key is formatted as it is (never kept)
    if (template === undefined) return fill(compile(key), args);
    let parts = this.#compiled.get(template);
    if (parts === undefined) {
      parts = compile(template);
      this.#compiled.set(template, parts);
    }
    return fill(parts, args);
  }
}

const PLACEHOLDER = /%(?:(\d+)\$)?s/g;

/** A template as text and argument indexes: `%s` takes the next argument in order, `%2$s` the second. */
const compile = (template: string): readonly (string | number)[] => {
  const parts: (string | number)[] = [];
  let next = 0;
  let from = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    parts.push(template.slice(from, match.index), match[1] === undefined ? next++ : Number(match[1]) - 1);
    from = match.index + match[0].length;
  }
  parts.push(template.slice(from));
  return parts;
};

/** A compiled template with its arguments in place (a missing argument is empty). */
const fill = (parts: readonly (string | number)[], args: readonly string[]): string => {
  let text = "";
  for (const part of parts) text += typeof part === "string" ? part : (args[part] ?? "");
  return text;
};

/** `zh-CN`, `zh_CN`, `zh` → `zh_cn`; anything else not Chinese → `en_us`. */
export const normalizeLocale = (locale: string): string => {
  const lower = locale.toLowerCase().replace("-", "_");
  if (lower.startsWith("zh")) return "zh_cn";
  return lower === "" ? "en_us" : lower.startsWith("en") ? "en_us" : lower;
};
