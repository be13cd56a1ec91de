import { z } from "zod";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinLines, joinTexts, LIST_KEY } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";

/** The action a confirm button runs: the admin revoke itself, confirmed. */
export const REVOKE_ACTION_ID = "system:admin_revoke";

const previewSchema = z.object({
  player: z.string().max(32),
  /** The entries of the player's file (record), as `owner/type`. */
  record: z.array(z.string().max(200)).max(200),
  history: z.number().int().nonnegative(),
  replay: z.number().int().nonnegative(),
});

/** What revoking a player's System deletes, read from their file and caches before anything is deleted. */
export type RevokePreview = z.infer<typeof previewSchema>;

/**
 * `system:admin_revoke`: what a revoke of the player's whole System access will delete (their player file's
 * entries, conversation history, stored answers, cached routes) and what it keeps (usage, paid days), with the
 * button that confirms it. Nothing is changed until it is confirmed.
 */
export const REVOKE_CARD = CardType.of<RevokePreview>("system:admin_revoke", codec(previewSchema), (data) => {
  const record =
    data.record.length === 0
      ? translatable("system.admin.revoke.record_empty")
      : translatable(
          "system.admin.revoke.record",
          joinTexts(
            data.record.map((entry) => literal(entry)),
            LIST_KEY,
          ),
        );
  const lines = joinLines([
    record,
    translatable(
      "system.admin.revoke.history",
      data.history === 1
        ? translatable("system.admin.revoke.turns.one")
        : translatable("system.admin.revoke.turns.other", data.history),
    ),
    translatable("system.admin.revoke.replay", data.replay),
    translatable("system.admin.revoke.routes"),
  ]);
  return CardBuilder.of(
    "system.admin.revoke.confirm",
    literal(data.player),
    lines,
    literal(data.player),
  ).button(
    "system.admin.revoke.button",
    REVOKE_ACTION_ID,
    JSON.stringify({ grant: false, player: data.player, confirm: true }),
  );
});
