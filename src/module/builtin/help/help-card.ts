import { z } from "zod";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinLines } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal, type Text, translatable } from "../../../agent/text.js";
import { codec, type Json } from "../../../util/codec.js";

const entrySchema = z.object({
  /** The first workflow of the line (the one its button runs). */
  moduleId: z.string(),
  /** The line's commands in the player's language (`/system shop · buy <product> · orders`); empty: text only. */
  usages: z.array(z.string()).max(16),
  /** A translation key of the description, when the language files have one. */
  descriptionKey: z.string().optional(),
  /** The module's own English one-liner (shown when there is no translation). */
  description: z.string(),
  /** The description in the player's language, for the button's label (labels take plain arguments). */
  descriptionText: z.string().optional(),
  /** One sample sentence in the player's language. */
  example: z.string().optional(),
  /** What the line's button runs: the workflow's input, from its plain command or its example. */
  input: z.custom<Json>().optional(),
  /** What the button does, for its hover: the command it runs (`/system checkin`) or the example it tries. */
  runs: z.string().optional(),
});

const helpSchema = z.object({
  entries: z.array(entrySchema).max(64),
  /** `/system help admin`: the admin commands this player may use. */
  admin: z.boolean().optional(),
  /** Whether the player has admin commands (help then ends with a button to list them). */
  hasAdmin: z.boolean().optional(),
});

/** What the help card lists: the features this player can use now, one line each. */
export type HelpCardData = z.infer<typeof helpSchema>;
export type HelpCardEntry = z.infer<typeof entrySchema>;

const description = (entry: HelpCardEntry): Text =>
  entry.descriptionKey === undefined ? literal(entry.description) : translatable(entry.descriptionKey);

const entryLine = (entry: HelpCardEntry): Text =>
  entry.usages.length === 0
    ? translatable("system.help.entry.text_only", description(entry))
    : translatable("system.help.entry", literal(entry.usages.join(" · ")), description(entry));

/**
 * `system:help`: one line per feature in the player's language. A line whose workflow can run as it stands (a plain
 * command, or its example) is a button that runs it; the others are text. Admin commands are listed on their own.
 */
export const HELP_CARD = CardType.of<HelpCardData>("system:help", codec(helpSchema), (data) => {
  if (data.entries.length === 0)
    return CardBuilder.of(data.admin === true ? "system.help.admin_empty" : "system.help.empty");
  const buttons = data.entries.filter(
    (entry) => entry.input !== undefined && entry.descriptionText !== undefined,
  );
  const text = data.entries.filter((entry) => !buttons.includes(entry));
  const heading = data.admin === true ? "system.help.admin_card" : "system.help.card";
  const builder =
    text.length === 0
      ? CardBuilder.of(`${heading}.buttons`)
      : CardBuilder.of(heading, joinLines(text.map(entryLine)));
  for (const entry of buttons)
    builder.labelledButton({
      labelKey: "system.help.entry",
      labelArgs: [entry.usages.join(" · "), entry.descriptionText ?? entry.description],
      action: entry.moduleId,
      args: [JSON.stringify(entry.input)],
      ...(entry.runs === undefined ? {} : { hoverKey: "system.help.runs", hoverArgs: [entry.runs] }),
    });
  if (data.hasAdmin === true && data.admin !== true)
    builder.labelledButton({
      labelKey: "system.help.admin_button",
      action: "system:help",
      args: [JSON.stringify({ admin: true })],
      hoverKey: "system.help.runs",
      hoverArgs: ["/system help admin"],
    });
  return builder.buttonsOnLines();
});
