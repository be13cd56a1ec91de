import { z } from "zod";
import { Tool } from "../../agent/tool/tool.js";
import { ToolType } from "../../agent/tool/tool-type.js";
import { codec } from "../../util/codec.js";
import type { ItemCatalog } from "../data/item-catalog.js";

const giftSchema = z
  .object({
    /** Item ids as a gift names them (modded ids allowed: they are shown, marked not deliverable). */
    items: z
      .array(z.object({ item: z.string().min(1).max(200), count: z.number().int().min(1).max(6400) }))
      .max(32),
    experience: z
      .object({ points: z.number().int().min(0).max(1_000_000), levels: z.number().int().min(0).max(1_000) })
      .optional(),
  })
  .strict();

const entrySchema = z.object({
  item: z.string(),
  /** The item's name in the asking player's language (the id when the server does not know it). */
  name: z.string(),
  count: z.number().int(),
  /** Whether this server knows the item, so it can be given. */
  deliverable: z.boolean(),
});

/** What a gift contains, one line per item, plus its experience. */
export type GiftList = {
  entries: z.infer<typeof entrySchema>[];
  experience?: { points: number; levels: number };
};

/** `system:gift.list`: the shared gift-list tool (a starter kit, a quest that is a gift). */
export const GIFT_LIST = ToolType.of(
  "system:gift.list",
  codec(giftSchema),
  codec(
    z.object({
      entries: z.array(entrySchema),
      experience: z.object({ points: z.number().int(), levels: z.number().int() }).optional(),
    }) as z.ZodType<GiftList>,
  ),
);

/**
 * The shared gift-list tool: names every item of a gift in the asking player's language and says whether this
 * server can deliver it (an item id it does not know is shown as is and never given). Read-only; any feature that
 * shows a gift (the quests feature for a quest whose snapshot says `starterGift`) calls it.
 */
export const giftListTool = (catalog: ItemCatalog | undefined): Tool<z.infer<typeof giftSchema>, GiftList> =>
  Tool.of(GIFT_LIST, async (input, scope): Promise<GiftList> => {
    const chinese = scope.locale.toLowerCase().startsWith("zh");
    const entries = input.items.map(({ item, count }) => {
      const info = catalog?.lookup(item);
      const name =
        info === undefined ? item : chinese ? (info.names.zh_cn ?? info.names.en_us) : info.names.en_us;
      return { item, name, count, deliverable: info !== undefined };
    });
    const experience = input.experience;
    return experience === undefined || experience.points + experience.levels === 0
      ? { entries }
      : { entries, experience: { ...experience } };
  }).asReadOnly();
