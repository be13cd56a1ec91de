import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Our zh_cn item name table (minecraft-data ships English only), keyed by namespaced id. */
export const ZH_CN_ITEM_NAMES_PATH = fileURLToPath(
  new URL("../../../resources/data/system/lang-items/zh_cn.json", import.meta.url),
);

/** Reads a `lang-items/<locale>.json` table; a data pack may ship its own to extend or override ours. */
export const loadItemNames = (path: string = ZH_CN_ITEM_NAMES_PATH): ReadonlyMap<string, string> => {
  const table = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const names = new Map<string, string>();
  for (const [id, name] of Object.entries(table)) {
    if (typeof name === "string" && name.trim() !== "")
      names.set(id.includes(":") ? id : `minecraft:${id}`, name);
  }
  return names;
};

/**
 * Names players use that are not the current official ones (`史莱姆球` for 黏液球, `萤石粉` for 荧石粉, `bed` for
 * White Bed), alias → namespaced id. Item mentions read them; cards always show the official names.
 */
export const ITEM_ALIASES_PATH = fileURLToPath(
  new URL("../../../resources/data/system/lang-items/aliases.json", import.meta.url),
);

/** Reads the alias table: alias (any language) → namespaced item id. */
export const loadItemAliases = (path: string = ITEM_ALIASES_PATH): ReadonlyMap<string, string> => {
  const table = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const aliases = new Map<string, string>();
  for (const [alias, id] of Object.entries(table))
    if (typeof id === "string" && alias.trim() !== "") aliases.set(alias.trim().toLowerCase(), id);
  return aliases;
};
