import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const table = (locale: string): Record<string, string> =>
  JSON.parse(readFileSync(`resources/assets/system/lang/${locale}.json`, "utf8")) as Record<string, string>;

const english = table("en_us");
const chinese = table("zh_cn");
const CJK = /[\u3400-\u9fff]/;
/** Words a Chinese line may keep in Latin letters: the product name and common abbreviations. */
const LATIN_WORDS = new Set(["System", "AI", "ID", "HTTP"]);

describe("system language files", () => {
  it("have the same keys in en_us and zh_cn", () => {
    expect(Object.keys(chinese).filter((key) => !(key in english))).toEqual([]);
    expect(Object.keys(english).filter((key) => !(key in chinese))).toEqual([]);
  });

  it("say every zh_cn line with words in Chinese", () => {
    const untranslated = Object.entries(chinese).filter(([, value]) => {
      const words = value.replace(/%(?:\d+\$)?s/g, "").match(/[A-Za-z]{2,}/g) ?? [];
      return words.some((word) => !LATIN_WORDS.has(word)) && !CJK.test(value);
    });
    expect(untranslated).toEqual([]);
  });

  it("describe every built-in player and admin command for help in both languages", () => {
    const modules = [
      "help",
      "item_query",
      "player_query",
      "check_in",
      "balance",
      "points_admin",
      "deliveries",
      "settings",
      "clear",
      "cancel",
      "question",
      "reasoning",
      "knowledge_admin",
      "admin_access",
      "admin_revoke",
      "admin_reset",
      "admin_usage",
      "admin_reload",
      "mode",
    ];
    for (const module of modules) {
      const key = `system.help.module.system.${module}`;
      expect(english[key], key).toBeTypeOf("string");
      expect(chinese[key], key).toMatch(CJK);
    }
    for (const [key, value] of Object.entries(chinese))
      if (key.startsWith("system.help.") && /[A-Za-z]{3,}/.test(value.replace(/%(?:\d+\$)?s|System/g, "")))
        expect.fail(`${key} is not translated: ${value}`);
  });
});
