import { z } from "zod";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinLines } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal, type Text, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";

const entrySchema = z.object({
  moduleId: z.string(),
  /** `/system item <query>` lines; empty for workflows reached by plain text only. */
  usages: z.array(z.string()).max(16),
  /** A translation key of the description, when the language files have one. */
  descriptionKey: z.string().optional(),
  /** The module's own English one-liner (shown when there is no translation). */
  description: z.string(),
  /** One sample sentence in the player's language. */
  example: z.string().optional(),
});

const helpSchema = z.object({ entries: z.array(entrySchema).max(64) });

/** What the help card lists: the workflows this player can use now. */
export type HelpCardData = z.infer<typeof helpSchema>;
export type HelpCardEntry = z.infer<typeof entrySchema>;

const entryLine = (entry: HelpCardEntry): Text => {
  const description =
    entry.descriptionKey === undefined ? literal(entry.description) : translatable(entry.descriptionKey);
  const head =
    entry.usages.length === 0
      ? translatable("system.help.entry.text_only", description)
      : translatable("system.help.entry", literal(entry.usages.join(" · ")), description);
  return entry.example === undefined
    ? head
    : joinLines([head, translatable("system.help.example", literal(entry.example))]);
};

/** `system:help`: one line per usable workflow (commands, description, an example). */
export const HELP_CARD = CardType.of<HelpCardData>("system:help", codec(helpSchema), (data) =>
  data.entries.length === 0
    ? CardBuilder.of("system.help.empty")
    : CardBuilder.of("system.help.card", joinLines(data.entries.map(entryLine))),
);
