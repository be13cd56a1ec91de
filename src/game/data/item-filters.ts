import type { ItemCatalog } from "./item-catalog.js";

/** How many items a filter lists before "…": enough to recognise it, short enough for a card line. */
const SHOWN = 6;

/** The item ids a smart filter expression names: `item(id)`, `item_tag(tag)`, `mod(id)` anywhere in it. */
const smartFilterItems = (expression: string, catalog: ItemCatalog): string[] => {
  const items: string[] = [];
  for (const match of expression.matchAll(/\b(item|item_tag|tag|mod)\(\s*([^()\s]+)\s*\)/g)) {
    const [, kind, argument] = match as unknown as [string, string, string];
    if (kind === "item") items.push(argument.includes(":") ? argument : `minecraft:${argument}`);
    else if (kind === "mod")
      items.push(
        ...catalog
          .all()
          .filter((item) => item.mod?.id === argument)
          .map((item) => item.id),
      );
    else items.push(...(catalog.content?.tagItems(argument) ?? []));
  }
  return items;
};

/**
 * What a quest's filter item accepts, as item ids: `#tag` ids and `itemfilters:tag` through the server's tags,
 * FTB Filter System's smart filters through their expression; undefined for a plain item. An empty list means
 * the filter's items are not known here (no such tag in the pack).
 */
export const filterItems = (
  item: { readonly id: string; readonly filter?: string },
  catalog: ItemCatalog,
): { readonly items: readonly string[]; readonly more: number } | undefined => {
  let items: string[];
  if (item.id.startsWith("#")) items = [...(catalog.content?.tagItems(item.id) ?? [])];
  else if (item.id.startsWith("itemfilters:") && item.filter !== undefined)
    items =
      item.id === "itemfilters:tag"
        ? [...(catalog.content?.tagItems(item.filter) ?? [])]
        : smartFilterItems(item.filter, catalog);
  else if (item.id.startsWith("ftbfiltersystem:")) items = smartFilterItems(item.filter ?? "", catalog);
  else return undefined;
  const unique = [...new Set(items)];
  return { items: unique.slice(0, SHOWN), more: Math.max(0, unique.length - SHOWN) };
};
