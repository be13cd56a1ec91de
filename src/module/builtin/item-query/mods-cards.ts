import { z } from "zod";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinLines, joinTexts, LIST_KEY } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal, type Text, translatable } from "../../../agent/text.js";
import { MODS_PAGE } from "../../../game/tools/mod-tools.js";
import { codec } from "../../../util/codec.js";
import { ITEM_QUERY_ACTION_ID } from "./item-cards.js";

/** The action of the mods list and of one mod (card buttons run it with `{"mod": id}`). */
export const MODS_ACTION_ID = "system:mods";

/** Buttons a mods card offers. */
const BUTTONS = 4;

const line = z.object({ id: z.string(), name: z.string(), version: z.string(), items: z.number().int() });
const listSchema = z.object({
  mods: z.array(line).max(MODS_PAGE),
  /** This page (from 1) of `pages`. */
  page: z.number().int().min(1),
  pages: z.number().int().min(1),
  total: z.number().int().min(0),
});
export type ModListData = z.infer<typeof listSchema>;

const modSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  /** `Forge`, `NeoForge`, `Fabric`, or "" when unknown. */
  loader: z.string(),
  items: z.number().int().min(0),
  /** Its first items by name, in the reader's language. */
  names: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type ModData = z.infer<typeof modSchema>;

const notFoundSchema = z.object({
  query: z.string(),
  suggestions: z.array(line.pick({ id: true, name: true })),
});
export type ModNotFoundData = z.infer<typeof notFoundSchema>;

const n = (value: number): Text => literal(String(value));
const titled = (name: string, version: string): Text =>
  version === "" ? literal(name) : translatable("system.mods.name_version", literal(name), literal(version));

const modButton = (builder: CardBuilder, mod: { id: string; name: string }): void => {
  builder.labelledButton({
    labelKey: "system.mods.button.items",
    labelArgs: [mod.name],
    action: MODS_ACTION_ID,
    args: [JSON.stringify({ mod: mod.id })],
  });
};

/**
 * `system:mods`: one page of the server's mods (most items first), each with its version and how many items it
 * adds; buttons to the first ones' items and to the next page.
 */
export const MODS_CARD = CardType.of<ModListData>("system:mods", codec(listSchema), (data) => {
  if (data.total === 0) return CardBuilder.of("system.mods.none");
  const lines: Text[] = data.mods.map((mod) =>
    mod.items === 0
      ? titled(mod.name, mod.version)
      : translatable("system.mods.line", titled(mod.name, mod.version), n(mod.items)),
  );
  const builder =
    data.pages === 1
      ? CardBuilder.of("system.mods.list", n(data.total), joinLines(lines))
      : CardBuilder.of("system.mods.list.page", n(data.total), n(data.page), n(data.pages), joinLines(lines));
  for (const mod of data.mods.filter((entry) => entry.items > 0).slice(0, BUTTONS)) modButton(builder, mod);
  if (data.page < data.pages)
    builder.labelledButton({
      labelKey: "system.mods.button.next",
      action: MODS_ACTION_ID,
      args: [JSON.stringify({ page: data.page + 1 })],
    });
  return builder;
});

/** `system:mod`: one mod, its id, loader, item count and first items, with look-up buttons. */
export const MOD_CARD = CardType.of<ModData>("system:mod", codec(modSchema), (data) => {
  const head = [
    titled(data.name, data.version),
    literal(data.id),
    literal(data.loader === "" ? "—" : data.loader),
  ];
  if (data.items === 0) return CardBuilder.of("system.mods.mod.no_items", ...head);
  const names = joinTexts(
    data.names.map((entry) => literal(entry.name)),
    LIST_KEY,
  );
  const more = data.items - data.names.length;
  const builder =
    more > 0
      ? CardBuilder.of("system.mods.mod.more", ...head, n(data.items), names, n(more))
      : CardBuilder.of("system.mods.mod", ...head, n(data.items), names);
  for (const entry of data.names.slice(0, BUTTONS))
    builder.labelledButton({
      labelKey: "system.mods.button.item",
      labelArgs: [entry.name],
      action: ITEM_QUERY_ACTION_ID,
      args: [JSON.stringify({ query: entry.id })],
    });
  return builder;
});

/** `system:mod_not_found`: the name asked and up to five close mods as buttons. */
export const MOD_NOT_FOUND_CARD = CardType.of<ModNotFoundData>(
  "system:mod_not_found",
  codec(notFoundSchema),
  (data) => {
    const builder = CardBuilder.of(
      data.suggestions.length === 0 ? "system.mods.not_found" : "system.mods.not_found.suggestions",
      literal(data.query),
    );
    for (const mod of data.suggestions) modButton(builder, mod);
    return builder;
  },
);
