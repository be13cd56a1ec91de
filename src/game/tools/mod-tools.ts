import { z } from "zod";
import { Tool } from "../../agent/tool/tool.js";
import { ToolType } from "../../agent/tool/tool-type.js";
import { codec } from "../../util/codec.js";
import type { Identifier } from "../../util/identifier.js";
import type { ModSummary, ServerMods } from "../data/server-mods.js";

/** Items of one mod a tool answer carries at most (the count says how many there are). */
export const MOD_ITEMS_SHOWN = 12;
/** Close mods offered when the asked one is not found. */
const SUGGESTIONS = 5;
/** Mods a tool answer lists at most (big packs run 300 and more; `total` says how many). */
const LISTED = 300;

const modLine = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  loader: z.string(),
  /** How many items it adds. */
  items: z.number().int().min(0),
});
const modsOutput = z.object({
  /** Every mod of the server, by name; empty when System has not read the server's content. */
  mods: z.array(modLine).max(LISTED),
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

/** `system:mods.list`: the server's mods, or one of them with its items. */
export const MODS_LIST = ToolType.of(
  "system:mods.list",
  codec(z.object({ mod: z.string().trim().max(64).optional() })),
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
}): Tool<{ mod?: string | undefined }, ModsOutput> =>
  Tool.of(MODS_LIST, async (input) => {
    const all = options.mods.list();
    const mods = all.slice(0, LISTED).map(line);
    const total = all.length;
    const asked = input.mod ?? "";
    if (asked === "") return { mods, total, suggestions: [] };
    const mod = options.mods.find(asked);
    if (mod === undefined)
      return { mods, total, suggestions: options.mods.search(asked, SUGGESTIONS).map(line) };
    const names = mod.items.slice(0, MOD_ITEMS_SHOWN).map((item) => ({
      id: item.id,
      en_us: item.names.en_us,
      ...(item.names.zh_cn === undefined ? {} : { zh_cn: item.names.zh_cn }),
    }));
    return { mods, total, found: { ...line(mod), names }, suggestions: [] };
  })
    .asReadOnly()
    .withOwnOutput()
    .ownedBy(options.owner)
    .forReasoning(
      "List the mods this server runs (name, version, how many items each adds), or one mod (by id or name) with its first items.",
    );
