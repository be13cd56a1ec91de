import { z } from "zod";
import { Tool } from "../../agent/tool/tool.js";
import { ToolType } from "../../agent/tool/tool-type.js";
import { type Codec, codec } from "../../util/codec.js";
import type { Identifier } from "../../util/identifier.js";
import type { ItemCatalog } from "../data/item-catalog.js";
import { ITEM_SOURCES, type ItemSources, type ItemSourcesInfo } from "../data/item-sources.js";

const itemSchema = z.object({
  id: z.string(),
  names: z.object({ en_us: z.string(), zh_cn: z.string().optional() }),
  stackSize: z.number().int().positive(),
});

/** An item as tools and cards carry it: id, names, stack size. */
export type ItemView = z.infer<typeof itemSchema>;
export const ITEM_VIEW: Codec<ItemView> = codec(itemSchema);

const lookupOutput = z.object({
  /** The item the query names exactly (id, English or Chinese name); absent when none does. */
  item: itemSchema.optional(),
  /** Close items when nothing matched exactly (at most five). */
  suggestions: z.array(itemSchema).max(5),
});
export type ItemLookupOutput = z.infer<typeof lookupOutput>;

/** `system:item.lookup`: resolves an item id or an exact en_us/zh_cn name. */
export const ITEM_LOOKUP = ToolType.of(
  "system:item.lookup",
  codec(z.object({ query: z.string().trim().min(1).max(128) })),
  codec(lookupOutput),
);

/** `system:item.sources`: crafting recipes, block loot and entity loot that yield an item. */
export const ITEM_SOURCES_TOOL = ToolType.of<{ item: string }, ItemSourcesInfo>(
  "system:item.sources",
  codec(z.object({ item: z.string().min(1).max(128) })),
  ITEM_SOURCES,
);

/** The plain view of a catalog entry (no numeric ids: they mean nothing to a player or a model). */
export const itemView = (info: {
  id: string;
  names: { en_us: string; zh_cn?: string };
  stackSize: number;
}): ItemView =>
  info.names.zh_cn === undefined
    ? { id: info.id, names: { en_us: info.names.en_us }, stackSize: info.stackSize }
    : { id: info.id, names: { en_us: info.names.en_us, zh_cn: info.names.zh_cn }, stackSize: info.stackSize };

/** The read-only item tools of the item-query feature, declared for reasoning and owned by it. */
export const itemTools = (options: {
  readonly catalog: ItemCatalog;
  readonly sources: ItemSources;
  readonly owner: Identifier;
}): {
  readonly lookup: Tool<{ query: string }, ItemLookupOutput>;
  readonly sources: Tool<{ item: string }, ItemSourcesInfo>;
} => {
  const lookup = Tool.of(ITEM_LOOKUP, async (input) => {
    const found = options.catalog.lookup(input.query);
    if (found !== undefined) return { item: itemView(found), suggestions: [] };
    return { suggestions: options.catalog.search(input.query, 5).map(itemView) };
  })
    .asReadOnly()
    .withOwnOutput()
    .ownedBy(options.owner)
    .forReasoning(
      "Find a Minecraft item by id (minecraft:diamond) or exact English/Chinese name; returns id, names and stack size, or close suggestions.",
    );
  const sources = Tool.of(ITEM_SOURCES_TOOL, async (input) => options.sources.of(input.item))
    .asReadOnly()
    .withOwnOutput()
    .ownedBy(options.owner)
    .forReasoning(
      "List where a Minecraft item comes from: crafting recipes (ingredients), blocks that drop it and mobs that drop it; and the items it is used in. Input: an item id.",
    );
  return { lookup, sources };
};
