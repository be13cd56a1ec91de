import { z } from "zod";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinLines } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal, type Text, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";

/** Entries the balance card lists, newest first. */
export const RECENT_ENTRIES = 5;

const lineSchema = z.object({
  amount: z.number().int(),
  reason: z.string(),
  /** The entry's local day (`YYYY-MM-DD`). */
  day: z.string(),
});

const balanceSchema = z.object({
  balance: z.number().int().nonnegative(),
  /** Newest first, at most {@link RECENT_ENTRIES}. */
  recent: z.array(lineSchema).max(RECENT_ENTRIES),
});
export type PointsBalanceCardData = z.infer<typeof balanceSchema>;

const adminSchema = z.object({
  /** given / taken: done; insufficient: a take refused, the balance is unchanged. */
  status: z.enum(["given", "taken", "insufficient"]),
  player: z.string(),
  amount: z.number().int().positive(),
  balance: z.number().int().nonnegative(),
});
export type PointsAdminCardData = z.infer<typeof adminSchema>;

/** A ledger reason as a player reads it: `check_in`, `shop:…`, `refund:…`, `admin:<name>`, `carried`, `quest:…`, else as written. */
export const reasonText = (reason: string): Text => {
  const colon = reason.indexOf(":");
  const kind = colon < 0 ? reason : reason.slice(0, colon);
  const detail = colon < 0 ? "" : reason.slice(colon + 1);
  // a shop entry's id is no name: the purchase and its refund are said as such
  if (kind === "check_in" || kind === "carried" || kind === "bonus" || kind === "shop" || kind === "refund")
    return translatable(`system.points.reason.${kind}`);
  if (kind === "admin" || kind === "quest")
    return translatable(`system.points.reason.${kind}`, literal(detail));
  return literal(reason);
};

const signed = (amount: number): string => (amount > 0 ? `+${amount}` : String(amount));

/** `system:points_balance`: the balance and the latest ledger entries (amount, reason, day). */
export const POINTS_BALANCE_CARD = CardType.of<PointsBalanceCardData>(
  "system:points_balance",
  codec(balanceSchema),
  (data) =>
    (data.recent.length === 0
      ? CardBuilder.of("system.points.balance.empty", literal(String(data.balance)))
      : CardBuilder.of(
          "system.points.balance",
          literal(String(data.balance)),
          joinLines(
            data.recent.map((line) =>
              translatable(
                "system.points.entry",
                literal(signed(line.amount)),
                reasonText(line.reason),
                literal(line.day),
              ),
            ),
          ),
        )
    ).labelledButton({
      labelKey: "system.points.balance.earn_button",
      action: "system:points_earning",
      args: ["{}"],
      hoverKey: "system.help.runs",
      hoverArgs: ["/system earn"],
    }),
);

/** `system:points_admin`: what an admin's give or take did, or why a take was refused. */
export const POINTS_ADMIN_CARD = CardType.of<PointsAdminCardData>(
  "system:points_admin",
  codec(adminSchema),
  (data) =>
    CardBuilder.of(
      `system.points.admin.${data.status}`,
      literal(String(data.amount)),
      literal(data.player),
      literal(String(data.balance)),
    ),
);
