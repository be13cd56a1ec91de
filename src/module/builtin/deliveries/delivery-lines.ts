import { createHash } from "node:crypto";
import { joinTexts, LIST_KEY } from "../../../agent/card/card-text.js";
import { literal, type Text, translatable } from "../../../agent/text.js";
import type { ItemCatalog } from "../../../game/data/item-catalog.js";
import { ITEM_STACKS } from "../../../game/tools/give-items-tool.js";
import type { Json } from "../../../util/codec.js";

/** A short, stable reference an admin can type instead of the whole task id. */
export const deliveryRef = (taskId: string): string =>
  createHash("sha256").update(taskId).digest("hex").slice(0, 8);

/**
 * The item names of a delivery's input or an outbox effect's payload (`items: [{ item, count }]`), or the raw
 * value when it has none.
 */
export const deliveryItems = (input: Json, catalog: ItemCatalog, locale: string): Text => {
  const items =
    typeof input === "object" && input !== null && !Array.isArray(input) ? input.items : undefined;
  const stacks = ITEM_STACKS.decode(items);
  if (!stacks.success || stacks.value.length === 0) return literal(JSON.stringify(input));
  const zh = locale.toLowerCase().startsWith("zh");
  return joinTexts(
    stacks.value.map((stack) => {
      const names = catalog.lookup(stack.item)?.names;
      const name = names === undefined ? stack.item : zh ? (names.zh_cn ?? names.en_us) : names.en_us;
      return translatable("system.deliveries.item", literal(name), stack.count);
    }),
    LIST_KEY,
  );
};

/** `YYYY-MM-DD HH:MM` of an instant in a time zone. */
export const localTime = (millis: number, timeZone: string): string =>
  new Intl.DateTimeFormat("sv-SE", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(millis));
