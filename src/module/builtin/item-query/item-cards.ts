import { z } from "zod";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinLines, joinTexts, LIST_KEY } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal, type Text, translatable } from "../../../agent/text.js";
import { type BlockDropCondition, blockDropConditionSchema } from "../../../game/data/loot-drop.js";
import { codec } from "../../../util/codec.js";

/** The action a card button runs and the JSON input it sends (the default button decoding). */
export const ITEM_QUERY_ACTION_ID = "system:item_query";

const named = z.object({ id: z.string(), name: z.string() });
const range = { min: z.number().nullable(), max: z.number().nullable(), chance: z.number() };
const itemCardSchema = z.object({
  id: z.string(),
  en_us: z.string(),
  zh_cn: z.string().optional(),
  stackSize: z.number().int(),
  /** The display name of the mod a modded item comes from. */
  mod: z.string().optional(),
  recipes: z.array(
    z.object({
      resultCount: z.number().int(),
      /** Names of the items a tag ingredient stands for, when it stands for more than one. */
      ingredients: z.array(
        named.extend({ count: z.number().int(), options: z.array(z.string()).optional() }),
      ),
      /** Where it is made: a vanilla station's translation key, or the mod's own name of its recipe type. */
      station: z.object({ key: z.string().optional(), name: z.string().optional() }).optional(),
    }),
  ),
  blocks: z.array(
    named.extend({
      ...range,
      silkTouch: z.boolean(),
      /** When the drop happens; without it, `silkTouch` alone marks "Silk Touch only". */
      condition: blockDropConditionSchema.optional(),
      fortune: z.boolean().optional(),
    }),
  ),
  entities: z.array(named.extend({ ...range, playerKill: z.boolean(), looting: z.boolean().optional() })),
  /** Sources left out of the card to keep it short, per kind. */
  more: z.object({ recipes: z.number().int(), blocks: z.number().int(), entities: z.number().int() }),
  /** Ingredients offered as "sources of …" buttons. */
  ingredients: z.array(named).max(4),
  /** A log or stem: it grows in the world as trees (huge fungi), which the loot tables do not say. */
  trees: z.boolean().optional(),
  /** Items whose recipes take this one (the first eight), and how many more there are. */
  usedIn: z.array(named).max(8).optional(),
  usedInMore: z.number().int().nonnegative().optional(),
});

/** An item with its sources, names already chosen for the asking player's language. */
export type ItemCardData = z.infer<typeof itemCardSchema>;

const percent = (chance: number): string => `${Math.round(chance * 1000) / 10}%`;
const amount = (min: number | null, max: number | null): string =>
  min === null ? "?" : max === null || max === min ? String(min) : `${min}–${max}`;
/** The parenthesised notes of a drop line: chance, condition, enchantment bonus. */
const notes = (parts: readonly (string | Text)[]): Text =>
  joinTexts(
    parts.map((part) => (typeof part === "string" ? literal(part) : part)),
    "system.item.drop.notes",
  );
const conditionNote = (condition: BlockDropCondition): Text[] =>
  condition === "none" ? [] : [translatable(`system.item.drop.${condition}`)];
const more = (count: number): Text[] => (count > 0 ? [translatable("system.item.sources.more", count)] : []);

const sourceLines = (data: ItemCardData): Text[] => {
  const lines: Text[] = [];
  if (data.trees === true) lines.push(translatable("system.item.sources.trees"));
  if (data.recipes.length > 0) {
    lines.push(translatable("system.item.sources.recipes"));
    for (const recipe of data.recipes) {
      const inputs = joinTexts(
        recipe.ingredients.map((ingredient) =>
          translatable(
            "system.item.ingredient",
            ingredient.count,
            ingredient.options !== undefined && ingredient.options.length > 1
              ? translatable(
                  "system.item.ingredient.any",
                  literal(ingredient.name),
                  joinTexts(ingredient.options.map(literal), LIST_KEY),
                )
              : literal(ingredient.name),
          ),
        ),
        LIST_KEY,
      );
      const station = recipe.station;
      const where =
        station?.key !== undefined
          ? translatable(station.key)
          : station?.name !== undefined
            ? literal(station.name)
            : undefined;
      lines.push(
        where === undefined
          ? translatable("system.item.recipe", inputs, recipe.resultCount)
          : translatable("system.item.recipe.station", inputs, recipe.resultCount, where),
      );
    }
    lines.push(...more(data.more.recipes));
  }
  if (data.blocks.length > 0) {
    lines.push(translatable("system.item.sources.blocks"));
    for (const drop of data.blocks)
      lines.push(
        translatable(
          "system.item.block_drop",
          literal(drop.name),
          amount(drop.min, drop.max),
          notes([
            percent(drop.chance),
            ...conditionNote(drop.condition ?? (drop.silkTouch ? "silk_touch" : "none")),
            ...(drop.fortune === true ? [translatable("system.item.drop.fortune")] : []),
          ]),
        ),
      );
    lines.push(...more(data.more.blocks));
  }
  if (data.entities.length > 0) {
    lines.push(translatable("system.item.sources.entities"));
    for (const drop of data.entities)
      lines.push(
        translatable(
          "system.item.entity_drop",
          literal(drop.name),
          amount(drop.min, drop.max),
          notes([
            percent(drop.chance),
            ...(drop.playerKill ? [translatable("system.item.drop.player_kill")] : []),
            ...(drop.looting === true ? [translatable("system.item.drop.looting")] : []),
          ]),
        ),
      );
    lines.push(...more(data.more.entities));
  }
  if (lines.length === 0) lines.push(translatable("system.item.sources.none"));
  const usedIn = data.usedIn ?? [];
  if (usedIn.length > 0) {
    const names = joinTexts(
      usedIn.map((item) => literal(item.name)),
      LIST_KEY,
    );
    const more = data.usedInMore ?? 0;
    lines.push(
      more > 0
        ? translatable("system.item.used_in.more", names, more)
        : translatable("system.item.used_in", names),
    );
  }
  return lines;
};

/** `system:item`: id, en_us and zh_cn names, stack size, sources, and "sources of <ingredient>" buttons. */
export const ITEM_CARD = CardType.of<ItemCardData>("system:item", codec(itemCardSchema), (data) => {
  const names = [
    literal(data.en_us),
    data.zh_cn === undefined ? translatable("system.item.no_zh_name") : literal(data.zh_cn),
    literal(data.id),
  ];
  const rest = [literal(String(data.stackSize)), joinLines(sourceLines(data))];
  const builder =
    data.mod === undefined
      ? CardBuilder.of("system.item.card", ...names, ...rest)
      : CardBuilder.of("system.item.card.modded", ...names, literal(data.mod), ...rest);
  for (const ingredient of data.ingredients)
    builder.labelledButton({
      labelKey: "system.item.button.sources_of",
      labelArgs: [ingredient.name],
      action: ITEM_QUERY_ACTION_ID,
      args: [JSON.stringify({ query: ingredient.id })],
    });
  return builder;
});

const notFoundSchema = z.object({ query: z.string(), suggestions: z.array(named).max(5) });
export type ItemNotFoundData = z.infer<typeof notFoundSchema>;

/** `system:item_not_found`: the query and up to five close items as buttons. */
export const ITEM_NOT_FOUND_CARD = CardType.of<ItemNotFoundData>(
  "system:item_not_found",
  codec(notFoundSchema),
  (data) => {
    const builder = CardBuilder.of(
      data.suggestions.length === 0 ? "system.item.not_found" : "system.item.not_found.suggestions",
      literal(data.query),
    );
    for (const suggestion of data.suggestions)
      builder.labelledButton({
        labelKey: "system.item.button.suggestion",
        labelArgs: [suggestion.name],
        action: ITEM_QUERY_ACTION_ID,
        args: [JSON.stringify({ query: suggestion.id })],
      });
    return builder;
  },
);
