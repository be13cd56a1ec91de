import type { ContentLayer, ContentRecipe } from "./content-model.js";
import { readRecipe } from "./recipe-reading.js";

const ID = `['"]([a-z0-9_.-]+:[a-z0-9_./-]+|[a-z0-9_./-]+)['"]`;
const namespaced = (id: string, namespace = "minecraft"): string =>
  id.includes(":") ? id : `${namespace}:${id}`;

/**
 * Literal item ids of `StartupEvents.registry('item'|'block', e => e.create('id')…)`; ids without a namespace
 * belong to `kubejs`. A `create(` whose argument is not a literal is counted as unread.
 */
export const readStartupScript = (source: string, layer: ContentLayer): void => {
  if (!/StartupEvents\.registry\(\s*['"](item|block)['"]/.test(source)) return;
  for (const match of source.matchAll(/\.create\(\s*([^,)]*)/g)) {
    const literal = new RegExp(`^${ID}$`).exec(match[1]!.trim());
    if (literal === null) layer.unread++;
    else layer.registered.push(namespaced(literal[1]!, "kubejs"));
  }
};

/** Turns a JavaScript object literal of plain values into JSON (quotes keys, single → double quotes). */
const literalJson = (text: string): unknown => {
  const json = text
    .replace(/'([^'\\]*)'/g, (_, body: string) => JSON.stringify(body))
    .replace(/([{,]\s*)([A-Za-z_][A-Za-z0-9_]*)\s*:/g, '$1"$2":')
    .replace(/,\s*([}\]])/g, "$1");
  return JSON.parse(json);
};

/** The text of a call's arguments starting at `open` (the index after `(`), up to its matching `)`. */
const argumentsAt = (source: string, open: number): string | undefined => {
  let depth = 1;
  let quote: string | undefined;
  for (let index = open; index < source.length; index++) {
    const char = source[index]!;
    if (quote !== undefined) {
      if (char === "\\") index++;
      else if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"' || char === "`") quote = char;
    else if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") {
      depth--;
      if (depth === 0) return source.slice(open, index);
    }
  }
  return undefined;
};

/**
 * What `ServerEvents.recipes` in one script does, where it is written literally: `remove({id})`,
 * `remove({output})`, `shaped('out', [...], {...})`, `shapeless('out', [...])`, `smelting('out', 'in')` and
 * `custom({...})`. Every other call on the event (loops, variables, filters, `replaceInput`) is counted as
 * unread: the report says how many, System never guesses them.
 */
export const readServerScript = (source: string, file: string, layer: ContentLayer): void => {
  if (!source.includes("ServerEvents.recipes")) return;
  let added = 0;
  for (const match of source.matchAll(
    /\b[A-Za-z_$][\w$]*\.(remove|shaped|shapeless|smelting|blasting|smoking|custom|replaceInput|replaceOutput)\(/g,
  )) {
    const method = match[1]!;
    const body = argumentsAt(source, match.index + match[0].length);
    const recipe = body === undefined ? undefined : literalCall(method, body);
    if (recipe === undefined) {
      layer.unread++;
      continue;
    }
    if ("remove" in recipe) {
      if (recipe.remove.id !== undefined) layer.recipes[recipe.remove.id] = null;
      if (recipe.remove.output !== undefined) layer.removedOutputs.push(recipe.remove.output);
      continue;
    }
    const id = `kubejs:script/${file.replace(/[^a-z0-9_/.-]/gi, "_")}/${added++}`;
    layer.recipes[id] = { ...recipe, id };
  }
};

type Literal = ContentRecipe | { remove: { id?: string; output?: string } };

const literalCall = (method: string, body: string): Literal | undefined => {
  try {
    if (method === "remove") {
      const filter = literalJson(body) as Record<string, unknown>;
      const keys = Object.keys(filter);
      if (keys.length !== 1) return undefined;
      if (typeof filter.id === "string") return { remove: { id: namespaced(filter.id) } };
      if (typeof filter.output === "string" && !filter.output.startsWith("#"))
        return { remove: { output: namespaced(filter.output) } };
      return undefined;
    }
    if (method === "custom") return readRecipe("kubejs:custom", literalJson(body));
    if (method === "replaceInput" || method === "replaceOutput") return undefined;
    const [result, input, key] = literalJson(`[${body}]`) as [unknown, unknown, unknown];
    if (typeof result !== "string") return undefined;
    const [count, out] = /^(\d+)x\s+(.+)$/.exec(result)?.slice(1) ?? ["1", result];
    const type =
      method === "shaped" ? "crafting_shaped" : method === "shapeless" ? "crafting_shapeless" : method;
    const json =
      method === "shaped"
        ? { type, pattern: input, key, result: { item: out, count: Number(count) } }
        : method === "shapeless"
          ? { type, ingredients: input, result: { item: out, count: Number(count) } }
          : { type, ingredient: input, result: out };
    return readRecipe("kubejs:literal", json);
  } catch {
    return undefined;
  }
};
