import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AgentFailure } from "../agent/agent-failure.js";
import { Languages, normalizeLocale } from "./language.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const resources = join(root, "resources");

/** Every non-test TypeScript file under src/. */
const sourceFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });

/** The `system.*` translation keys named as string literals in src/, with where they appear. */
const keysInSource = (): Map<string, string> => {
  const keys = new Map<string, string>();
  for (const file of sourceFiles(join(root, "src")))
    for (const match of readFileSync(file, "utf8").matchAll(/"(system\.[a-z_.]+)"/g)) {
      const key = match[1] as string;
      if (!key.endsWith(".")) keys.set(key, file.slice(root.length + 1));
    }
  return keys;
};

describe("Languages", () => {
  const languages = new Languages();
  languages.add("en_us", { "t.pair": "%s and %s", "t.swap": "%2$s before %1$s", "t.only_en": "English" });
  languages.add("zh_cn", { "t.pair": "%s 和 %s" });

  it("formats positional and ordered arguments, never parsing arguments as formats", () => {
    expect(languages.format("en_us", "t.pair", ["a", "b"])).toBe("a and b");
    expect(languages.format("en_us", "t.swap", ["a", "b"])).toBe("b before a");
    expect(languages.format("zh_cn", "t.pair", ["%s", "钻石"])).toBe("%s 和 钻石");
  });

  it("formats a template again after a table changed it, and fills missing arguments with nothing", () => {
    const changing = new Languages();
    changing.add("en_us", { "t.count": "%s of %s" });
    expect(changing.format("en_us", "t.count", ["1"])).toBe("1 of ");
    changing.add("en_us", { "t.count": "%2$s: %1$s%%s" });
    expect(changing.format("en_us", "t.count", ["1", "2"])).toBe("2: 1%1");
    expect(changing.format("en_us", "t.%s.unknown", ["x"])).toBe("t.x.unknown");
  });

  it("falls back to en_us, then to the key itself", () => {
    expect(languages.format("zh-CN", "t.only_en", [])).toBe("English");
    expect(languages.format("zh_cn", "t.missing", [])).toBe("t.missing");
  });

  it("normalizes locales", () => {
    expect(normalizeLocale("zh-CN")).toBe("zh_cn");
    expect(normalizeLocale("zh_TW")).toBe("zh_cn");
    expect(normalizeLocale("en-GB")).toBe("en_us");
    expect(normalizeLocale("")).toBe("en_us");
  });

  it("loads the built-in en_us and zh_cn tables", () => {
    const loaded = Languages.load(resources);
    expect(loaded.locales().sort()).toEqual(expect.arrayContaining(["en_us", "zh_cn"]));
    expect(loaded.format("zh_cn", "system.error.budget_exhausted", ["steps"])).toContain("steps");
  });
});

describe("translation keys", () => {
  const loaded = Languages.load(resources);

  it("every AgentFailure key exists in both en_us and zh_cn", () => {
    for (const failure of AgentFailure.values())
      for (const locale of ["en_us", "zh_cn"])
        expect(loaded.has(locale, failure.key), `${locale} lacks ${failure.key}`).toBe(true);
  });

  it('every "system.*" key used in src/ exists in both en_us and zh_cn', () => {
    const keys = keysInSource();
    expect(keys.size).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const [key, file] of keys)
      for (const locale of ["en_us", "zh_cn"])
        if (!loaded.has(locale, key)) missing.push(`${locale}: ${key} (${file})`);
    expect(missing).toEqual([]);
  });
});
