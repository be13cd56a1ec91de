import type { ItemCatalog, ItemInfo } from "../../../game/data/item-catalog.js";
import type { ItemSources } from "../../../game/data/item-sources.js";
import { recipeStation } from "./recipe-station.js";

/** One input of a recipe in an answer: the item (or `#tag`), how many, a tag's items, the name shown. */
export interface AnswerInput {
  readonly item: string;
  readonly count: number;
  readonly name: string;
  readonly options?: readonly string[];
}

/** What `content item` answers for one item (`--json`): the same facts the item card shows. */
export interface ItemAnswer {
  readonly id: string;
  /** The mod id (`minecraft` for vanilla items). */
  readonly mod: string;
  readonly modName: string;
  /** locale → name, every locale the game data and the pack have. */
  readonly names: Readonly<Record<string, string>>;
  readonly recipes: readonly {
    readonly type: string;
    /** Where it is made, in the asked locale: a vanilla station's key or a mod's own word. */
    readonly station: { readonly key?: string; readonly name?: string } | null;
    readonly inputs: readonly AnswerInput[];
    readonly outputs: readonly { readonly item: string; readonly count: number }[];
  }[];
  /** Blocks whose loot drops it. */
  readonly droppedBy: readonly string[];
  /** Of those, the ones that drop it only with Silk Touch. */
  readonly silkTouch: readonly string[];
  /** Entities whose loot drops it. */
  readonly entities: readonly string[];
}

/** Every name of an item: vanilla's two, or each locale the pack names a modded item in. */
const allNames = (info: ItemInfo, catalog: ItemCatalog): Record<string, string> => {
  const names: Record<string, string> = { ...info.names };
  if (info.mod !== undefined) Object.assign(names, catalog.content?.item(info.id)?.names);
  return names;
};

/**
 * The answer for an id or a name (exact, then the best search match): undefined when nothing matches. Names are
 * chosen for `locale` (Chinese falls back to English).
 */
export const itemAnswer = (
  query: string,
  options: { readonly catalog: ItemCatalog; readonly sources: ItemSources; readonly locale: string },
): ItemAnswer | undefined => {
  const { catalog, locale } = options;
  const info = catalog.lookup(query) ?? catalog.search(query, 1)[0];
  if (info === undefined) return undefined;
  const chinese = locale.toLowerCase().startsWith("zh");
  const nameOf = (id: string): string => {
    const found = catalog.lookup(id);
    if (found === undefined) return id.startsWith("#") ? id : catalog.nameOf("block", id, locale);
    return chinese ? (found.names.zh_cn ?? found.names.en_us) : found.names.en_us;
  };
  const sources = options.sources.of(info.id);
  return {
    id: info.id,
    mod: info.mod?.id ?? "minecraft",
    modName: info.mod?.name ?? "Minecraft",
    names: allNames(info, catalog),
    recipes: sources.recipes.map((recipe) => {
      const type =
        recipe.type ?? (recipe.shaped ? "minecraft:crafting_shaped" : "minecraft:crafting_shapeless");
      return {
        type,
        station: recipeStation(type, catalog.content, locale) ?? null,
        inputs: recipe.ingredients.map((ingredient) => ({
          item: ingredient.item,
          count: ingredient.count,
          name: nameOf(ingredient.options?.[0] ?? ingredient.item),
          ...(ingredient.options === undefined ? {} : { options: ingredient.options }),
        })),
        outputs: [{ item: info.id, count: recipe.resultCount }],
      };
    }),
    droppedBy: [...new Set(sources.blocks.map((drop) => drop.block))],
    silkTouch: [...new Set(sources.blocks.filter((drop) => drop.silkTouch).map((drop) => drop.block))],
    entities: [...new Set(sources.entities.map((drop) => drop.entity))],
  };
};

/** One line of text for an answer, in `locale`: name, id, mod, then each recipe and the drops. */
export const answerLine = (
  answer: ItemAnswer,
  locale: string,
  stationName: (station: { key?: string; name?: string } | null) => string,
): string => {
  const chinese = locale.toLowerCase().startsWith("zh");
  const name = (chinese ? answer.names.zh_cn : undefined) ?? answer.names.en_us ?? answer.id;
  const recipes = answer.recipes.map(
    (recipe) =>
      `${stationName(recipe.station)}: ${recipe.inputs.map((input) => `${input.count}× ${input.name}`).join(", ")} → ${recipe.outputs[0]?.count ?? 1}`,
  );
  const drops = answer.droppedBy.length === 0 ? [] : [`dropped by ${answer.droppedBy.join(", ")}`];
  return [`${name} — ${answer.id} (${answer.modName})`, ...recipes, ...drops].join(" | ");
};
