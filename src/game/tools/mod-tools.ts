import { z } from "zod";
import { Tool } from "../../agent/tool/tool.js";
import { ToolType } from "../../agent/tool/tool-type.js";
import { codec } from "../../util/codec.js";
import type { Identifier } from "../../util/identifier.js";
import type { ModSummary, ServerMods } from "../data/server-mods.js";

/** Items of one mod a tool answer carries at most (the count says how many there are). */
export const MOD_ITEMS_SHOWN = 12;
/** Mods one page of the list carries (big packs run 300 and more). */
export const MODS_PAGE = 15;
/** Close mods offered when the asked one is not found. */
const SUGGESTIONS = 5;

const modLine = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  loader: z.string(),
  /** How many items it adds. */
  items: z.number().int().min(0),
});
const modsOutput = z.object({
  /**
   * One page of the server's mods, those that add the most items first (libraries without items last); empty when
   * a mod was asked for, or System has not read the server's content.
   */
  mods: z.array(modLine).max(MODS_PAGE),
  page: z.number().int().min(1),
  pages: z.number().int().min(1),
  total: z.number().int().min(0),
  /** The mod asked for, with its first items by name. */
  found: modLine
    .extend({
      names: z.array(z.object({ id: z.string(), en_us: z.string(), zh_cn: z.string().optional() })),
    })
    .optional(),
  /** Mods close to an asked name that matched none. */
  suggestions: z.array(modLine).max(SUGGESTIONS),
});
export type ModsOutput = z.infer<typeof modsOutput>;
export type ModsToolInput = { mod?: string | undefined; page?: number | undefined };

/** `system:mods.list`: a page of the server's mods, or one of them with its items. */
export const MODS_LIST = ToolType.of<ModsToolInput, ModsOutput>(
  "system:mods.list",
  codec(
    z.object({
      mod: z.string().trim().max(64).optional(),
      page: z.number().int().min(1).max(1000).optional(),
    }) as z.ZodType<ModsToolInput>,
  ),
  codec(modsOutput),
);

const line = (mod: ModSummary): z.infer<typeof modLine> => ({
  id: mod.id,
  name: mod.name,
  version: mod.version,
  loader: mod.loader,
  items: mod.items.length,
});

/** The read-only mods tool of the item-query feature, declared for reasoning and owned by it. */
export const modsTool = (options: {
  readonly mods: ServerMods;
  readonly owner: Identifier;
}): Tool<ModsToolInput, ModsOutput> =>
  Tool.of(MODS_LIST, async (input) => {
    const all = options.mods.list();
    const total = all.length;
    const pages = Math.max(1, Math.ceil(total / MODS_PAGE));
    const asked = input.mod ?? "";
    if (asked !== "") {
      const mod = options.mods.find(asked);
      if (mod === undefined)
        return {
          mods: [],
          page: 1,
          pages,
          total,
          suggestions: options.mods.search(asked, SUGGESTIONS).map(line),
        };
      const names = mod.items.slice(0, MOD_ITEMS_SHOWN).map((item) => ({
        id: item.id,
        en_us: item.names.en_us,
        ...(item.names.zh_cn === undefined ? {} : { zh_cn: item.names.zh_cn }),
      }));
      return { mods: [], page: 1, pages, total, found: { ...line(mod), names }, suggestions: [] };
    }
    // the mods that add the most first (a pack's big ones), by name among equals; a page past the end is the last
    const ranked = [...all].sort((left, right) => right.items.length - left.items.length);
    const page = Math.min(input.page ?? 1, pages);
    const mods = ranked.slice((page - 1) * MODS_PAGE, page * MODS_PAGE).map(line);
    return { mods, page, pages, total, suggestions: [] };
  })
    .asReadOnly()
    .withOwnOutput()
    .ownedBy(options.owner)
    .forReasoning(
      "List the mods this server runs, a page (15) at a time, those adding the most items first (name, version, item count; input page), or one mod (input mod: id or name) with its first items.",
    );
