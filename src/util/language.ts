import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Translation tables by locale (`en_us`, `zh_cn`), loaded from `assets/<namespace>/lang/<locale>.json`. */
export class Languages {
  readonly #tables = new Map<string, Map<string, string>>();

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
      this.#tables.get(normalizeLocale(locale))?.get(key) ?? this.#tables.get("en_us")?.get(key) ?? key;
    let next = 0;
    return template.replace(/%(?:(\d+)\$)?s/g, (_, position: string | undefined) => {
      const index = position === undefined ? next++ : Number(position) - 1;
      return args[index] ?? "";
    });
  }
}

/** `zh-CN`, `zh_CN`, `zh` → `zh_cn`; anything else not Chinese → `en_us`. */
export const normalizeLocale = (locale: string): string => {
  const lower = locale.toLowerCase().replace("-", "_");
  if (lower.startsWith("zh")) return "zh_cn";
  return lower === "" ? "en_us" : lower.startsWith("en") ? "en_us" : lower;
};
