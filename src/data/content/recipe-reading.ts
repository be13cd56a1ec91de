import type { ContentRecipe, Ingredient, RecipeOutput } from "./content-model.js";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const namespaced = (id: string): string => (id.includes(":") ? id : `minecraft:${id}`);

/** Keys that hold inputs, in the order a reader expects them (vanilla first, then the mods' own words). */
const INPUT_KEYS = [
  "ingredient",
  "ingredients",
  "input",
  "inputs",
  "item_input",
  "itemInput",
  "template",
  "base",
  "addition",
  "catalyst",
];
const OUTPUT_KEYS = ["result", "results", "output", "outputs", "secondary_output", "extra_output"];

/**
 * The item options one ingredient stands for: `"ns:id"`, `"#ns:tag"` (1.21.2+), `{item}`, `{tag}`, an array
 * (any of), Mekanism's `{ingredient: …}`, NeoForge's `{type, items}`; fluids and chemicals give nothing.
 */
const options = (value: unknown): string[] => {
  if (typeof value === "string")
    return value === "" ? [] : [value.startsWith("#") ? value : namespaced(value)];
  if (Array.isArray(value)) return value.flatMap(options);
  if (!isObject(value)) return [];
  if (typeof value.item === "string") return [namespaced(value.item)];
  if (typeof value.tag === "string") return [`#${value.tag}`];
  if (value.ingredient !== undefined) return options(value.ingredient);
  if (Array.isArray(value.items)) return options(value.items);
  if (Array.isArray(value.children)) return options(value.children);
  return [];
};

const countOf = (value: unknown): number => {
  if (!isObject(value)) return 1;
  const count = value.count ?? value.amount;
  return typeof count === "number" && count > 0 && Number.isFinite(count) ? Math.floor(count) : 1;
};

/** Ingredients under one key: a list is several slots, an object of named slots (AE2's top/middle/bottom) too. */
const slots = (value: unknown): Ingredient[] => {
  if (Array.isArray(value))
    return value.flatMap((slot) => {
      const found = options(slot);
      return found.length === 0 ? [] : [{ options: found, count: countOf(slot) }];
    });
  if (
    isObject(value) &&
    value.item === undefined &&
    value.tag === undefined &&
    value.ingredient === undefined
  ) {
    const named = Object.values(value).filter((slot) => typeof slot === "string" || isObject(slot));
    if (named.length > 0 && named.every((slot) => options(slot).length > 0)) return slots(named);
  }
  const found = options(value);
  return found.length === 0 ? [] : [{ options: found, count: countOf(value) }];
};

/** Outputs: a string id, `{item}` (1.20.1), `{id}` (1.20.5+), `{item: {id, count}}` (FD 1.21 cutting), lists. */
const outputs = (value: unknown, defaultCount = 1): RecipeOutput[] => {
  if (typeof value === "string")
    return value === "" ? [] : [{ item: namespaced(value), count: defaultCount }];
  if (Array.isArray(value)) return value.flatMap((entry) => outputs(entry));
  if (!isObject(value)) return [];
  const id =
    typeof value.item === "string"
      ? value.item
      : typeof value.id === "string"
        ? value.id
        : isObject(value.item)
          ? value.item.id
          : undefined;
  if (typeof id !== "string") return [];
  const nested = isObject(value.item) ? value.item : value;
  const count = typeof nested.count === "number" ? nested.count : defaultCount;
  const chance = typeof value.chance === "number" && value.chance < 1 ? { chance: value.chance } : {};
  return [{ item: namespaced(id), count: Math.max(1, Math.floor(count)), ...chance }];
};

/** Shaped grids: each key counted by how often it appears in the pattern. */
const shaped = (recipe: Json): Ingredient[] => {
  const key = isObject(recipe.key) ? recipe.key : {};
  const pattern = Array.isArray(recipe.pattern)
    ? recipe.pattern.filter((row) => typeof row === "string")
    : [];
  const counts = new Map<string, number>();
  for (const row of pattern as string[])
    for (const cell of row) if (cell !== " ") counts.set(cell, (counts.get(cell) ?? 0) + 1);
  return [...counts].flatMap(([cell, count]) => {
    const found = options(key[cell]);
    return found.length === 0 ? [] : [{ options: found, count }];
  });
};

/** Load conditions in any loader's spelling: Forge `conditions`, NeoForge `neoforge:conditions`, Fabric. */
const conditionsOf = (recipe: Json): unknown[] | undefined => {
  for (const key of ["conditions", "neoforge:conditions", "forge:conditions", "fabric:load_conditions"]) {
    const value = recipe[key];
    if (Array.isArray(value) && value.length > 0) return value;
  }
  return undefined;
};

/**
 * One recipe JSON as a ContentRecipe: vanilla types exactly (shaped grids, cooking's string result, smithing's
 * three inputs), any other type generically from its input and output keys. Undefined for a file that is not a
 * recipe (no type) or one with no item output (fluids only).
 */
export const readRecipe = (id: string, json: unknown): ContentRecipe | undefined => {
  if (!isObject(json) || typeof json.type !== "string") return undefined;
  const type = namespaced(json.type);
  const conditions = conditionsOf(json);
  const inputs =
    type === "minecraft:crafting_shaped" || Array.isArray(json.pattern)
      ? shaped(json)
      : INPUT_KEYS.flatMap((key) => slots(json[key]));
  const stoneCount = typeof json.count === "number" ? json.count : 1;
  const made = OUTPUT_KEYS.flatMap((key) => outputs(json[key], key === "result" ? stoneCount : 1));
  if (made.length === 0) return undefined;
  return { id, type, inputs, outputs: made, ...(conditions === undefined ? {} : { conditions }) };
};

/**
 * Whether a recipe's load conditions hold with these mods installed: `mod_loaded` (any loader's prefix),
 * `not`, `and`, `or`, `true`/`false`, Fabric's `all_mods_loaded`/`any_mods_loaded`. A condition nobody can
 * check statically (`tag_empty`, a mod's own) counts as holding.
 */
export const conditionsHold = (
  conditions: readonly unknown[] | undefined,
  mods: ReadonlySet<string>,
): boolean => conditions === undefined || conditions.every((condition) => holds(condition, mods));

const holds = (condition: unknown, mods: ReadonlySet<string>): boolean => {
  if (!isObject(condition)) return true;
  const type = String(condition.type ?? condition.condition ?? "").replace(/^[a-z_]+:/, "");
  const values = Array.isArray(condition.values) ? condition.values : [];
  switch (type) {
    case "mod_loaded":
      return typeof condition.modid === "string" ? mods.has(condition.modid) : true;
    case "all_mods_loaded":
      return values.every((mod) => typeof mod !== "string" || mods.has(mod));
    case "any_mods_loaded":
      return values.some((mod) => typeof mod === "string" && mods.has(mod));
    case "not":
      return !holds(condition.value, mods);
    case "and":
      return values.every((value) => holds(value, mods));
    case "or":
      return values.some((value) => holds(value, mods));
    case "false":
      return false;
    default:
      return true;
  }
};
