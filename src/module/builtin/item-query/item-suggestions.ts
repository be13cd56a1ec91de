import type { ArgumentSuggestions } from "../../../agent/command/agent-command.js";
import type { ItemCatalog } from "../../../game/data/item-catalog.js";

/** How many catalog matches are read to find the names that start with what was typed. */
const SEARCHED = 60;

/**
 * Completion of `/system item <query>`: item names in the player's language that start with what they typed
 * (`钻` → 钻石, 钻石剑; `dia` → Diamond, Diamond Sword), the English name when they type English on a Chinese
 * client, the id when they type one (`minecraft:dia` → minecraft:diamond). Best matches first.
 */
export const itemSuggestions =
  (catalog: ItemCatalog): ArgumentSuggestions =>
  (typed, locale) => {
    const query = typed.trimStart();
    if (query === "") return [];
    const lower = query.toLowerCase();
    const values: string[] = [];
    for (const item of catalog.search(query, SEARCHED)) {
      const path = item.id.slice(item.id.indexOf(":") + 1);
      const candidates = lower.includes(":")
        ? [item.id]
        : locale === "zh_cn"
          ? [item.names.zh_cn, item.names.en_us, path]
          : [item.names.en_us, item.names.zh_cn, path];
      const value = candidates.find((name) => name?.toLowerCase().startsWith(lower));
      if (value !== undefined && !values.includes(value)) values.push(value);
    }
    return values;
  };
