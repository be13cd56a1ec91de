import { z } from "zod";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinTexts, LIST_KEY, present } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { literal, type Text, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";

const cardSchema = z.object({
  /**
   * checked_in: today's check-in; already: refused, checked in today before; delivered: the reward arrived;
   * unconfirmed: a give was interrupted (a crash) and an admin will check whether it arrived.
   */
  status: z.enum(["checked_in", "already", "delivered", "unconfirmed"]),
  day: z.string(),
  streak: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** Names chosen for the player's language. */
  items: z.array(z.object({ item: z.string(), name: z.string(), count: z.number().int() })).max(16),
  /** The reward could not be queued yet; it is retried on the next check-in command. */
  deliveryQueued: z.boolean(),
});

/** What a check-in card shows. */
export type CheckInCardData = z.infer<typeof cardSchema>;

const itemList = (data: CheckInCardData): Text =>
  joinTexts(
    data.items.map((stack) => translatable("system.check_in.item", literal(stack.name), stack.count)),
    LIST_KEY,
  );

/** A number of days with its plural form ("1 day", "2 days"; "1 天"). */
const days = (count: number): Text =>
  count === 1
    ? translatable("system.check_in.days.one")
    : translatable("system.check_in.days.other", literal(String(count)));

/** `system:check_in`: today's check-in, a refused second one (ALREADY_DONE), a delivered or unconfirmed reward. */
export const CHECK_IN_CARD = CardType.of<CheckInCardData>("system:check_in", codec(cardSchema), (data) => {
  if (data.status === "already")
    return CardBuilder.of("system.check_in.card.already", literal(data.day), days(data.streak));
  if (data.status === "delivered") return CardBuilder.of("system.check_in.card.delivered", itemList(data));
  if (data.status === "unconfirmed")
    return CardBuilder.of("system.check_in.card.unconfirmed", literal(data.day), itemList(data));
  return CardBuilder.of(
    data.deliveryQueued ? "system.check_in.card.done" : "system.check_in.card.done_pending",
    days(data.streak),
    days(data.total),
    itemList(data),
  );
});

/**
 * A check-in answer given again by the replay cache: whatever the stored card said (checked in, reward on its
 * way), a repeat reads as the refusal a new check-in would meet today (ALREADY_DONE, "You have already checked in
 * today"), so no reward is announced twice. An answer that is not a check-in card stays as it was.
 */
export const replayedCheckIn = (stored: AgentResult): AgentResult => {
  const presentation = stored.presentation;
  if (presentation?.type !== CHECK_IN_CARD.id.toString()) return stored;
  const data = CHECK_IN_CARD.codec.decode(presentation.data);
  if (!data.success) return stored;
  return AgentResult.error(AgentFailure.ALREADY_DONE).withPresentation(
    present(CHECK_IN_CARD.card({ ...data.value, status: "already", deliveryQueued: true })),
  );
};
