import { z } from "zod";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinLines, joinTexts, LIST_KEY } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal, type Text, translatable } from "../../../agent/text.js";
import { PLAYER_STATS_SNAPSHOT } from "../../../game/game-snapshots.js";
import { codec } from "../../../util/codec.js";
import { PLAYER_FIELDS, type PlayerField } from "./player-fields.js";

const playerCardSchema = z.object({
  name: z.string(),
  stats: PLAYER_STATS_SNAPSHOT.schema,
  /** Display names of the largest inventory totals, in the asking player's language, same order as totals. */
  itemNames: z.array(z.string()).max(8),
  /** The part the player asked about ("我的血量是多少" → health): its line comes first. */
  focus: z.enum(PLAYER_FIELDS).optional(),
});

/** A player's stats as the card shows them. */
export type PlayerCardData = z.infer<typeof playerCardSchema>;

/** The number of a stack the host could not name (the gateway's `unknown:item_<n>`). */
const UNKNOWN_ITEM = /^unknown:item_(\d+)$/u;

/**
 * A stack's name: the catalog's, else a number the host could not name said to be unknown (never its raw
 * placeholder), else its id.
 */
const stackName = (item: string, name: string | undefined): Text => {
  const unknown = UNKNOWN_ITEM.exec(item);
  if (unknown !== null && (name === undefined || name === item))
    return translatable("system.player.inventory.unknown_item", unknown[1] ?? "");
  return literal(name ?? item);
};

const round = (value: number): string => String(Math.round(value * 10) / 10);

/** `system:player`: health, food, xp, position, dimension, game mode and an inventory summary. */
export const PLAYER_CARD = CardType.of<PlayerCardData>("system:player", codec(playerCardSchema), (data) => {
  const { stats } = data;
  const totals = (stats.inventory?.totals ?? []).slice(0, data.itemNames.length);
  const items: Text =
    totals.length === 0
      ? translatable("system.player.inventory.empty")
      : joinTexts(
          totals.map((total, index) =>
            translatable(
              "system.player.inventory.item",
              stackName(total.item, data.itemNames[index]),
              total.count,
            ),
          ),
          LIST_KEY,
        );
  // a piece the host does not know (the gateway before it has seen it) is shown as unknown, never guessed
  const unknown = translatable("system.player.unknown");
  const { health, food, xpLevel, xpTotal, position, inventory } = stats;
  const lines: { fields: readonly PlayerField[]; text: Text }[] = [
    {
      fields: ["health", "food"],
      text:
        health === undefined || food === undefined
          ? translatable("system.player.health.unknown")
          : translatable("system.player.health", round(health), round(food)),
    },
    {
      fields: ["level"],
      text:
        xpLevel === undefined || xpTotal === undefined
          ? translatable("system.player.xp.unknown")
          : translatable("system.player.xp", xpLevel, round(xpTotal)),
    },
    {
      fields: ["position"],
      text:
        position === undefined
          ? translatable("system.player.position.unknown")
          : translatable(
              "system.player.position",
              round(position.x),
              round(position.y),
              round(position.z),
              stats.dimension === undefined ? unknown : literal(stats.dimension),
            ),
    },
    {
      fields: ["game_mode"],
      text: translatable(
        "system.player.game_mode",
        stats.gameMode === undefined ? unknown : translatable(`system.player.game_mode.${stats.gameMode}`),
      ),
    },
    {
      fields: ["inventory"],
      text:
        inventory === undefined
          ? translatable("system.player.inventory.unknown")
          : translatable("system.player.inventory", inventory.usedSlots, inventory.freeSlots, items),
    },
  ];
  const focus = data.focus;
  const ordered =
    focus === undefined
      ? lines
      : [
          ...lines.filter((line) => line.fields.includes(focus)),
          ...lines.filter((line) => !line.fields.includes(focus)),
        ];
  return CardBuilder.of(
    "system.player.card",
    literal(data.name),
    joinLines(ordered.map((line) => line.text)),
  );
});
