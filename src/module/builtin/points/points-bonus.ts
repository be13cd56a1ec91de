import { z } from "zod";
import { AgentResult } from "../../../agent/agent-result.js";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { present } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { SIMPLE_POLICY } from "../../../agent/execution/policy-defaults.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { literal, translatable } from "../../../agent/text.js";
import type { PointsAccounts } from "../../../data/player-state/points-accounts.js";
import type { GameClock } from "../../../game/context-types.js";
import { GameEventTypes } from "../../../game/game-events.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";

/** The most points one rule may give at once. */
export const MAX_BONUS_POINTS = 100_000;

/** The game events a bonus may be given for (an advancement rule must name one; the earning card says each). */
export const BONUS_EVENTS: readonly string[] = [
  GameEventTypes.FIRST_JOIN,
  GameEventTypes.JOIN,
  GameEventTypes.PLAYTIME,
  GameEventTypes.CHECK_IN_STREAK,
  GameEventTypes.QUEST_COMPLETED,
  GameEventTypes.CHAPTER_COMPLETED,
  GameEventTypes.KILL,
  GameEventTypes.DIMENSION_CHANGE,
  GameEventTypes.ADVANCEMENT,
  GameEventTypes.ORDER_DELIVERED,
];

interface BonusInput {
  readonly points: number;
  readonly event?: { readonly type: string };
}
const BONUS_ACTION = ActionType.of<BonusInput>(
  "system:points_bonus",
  codec(
    z
      .object({
        points: z.number().int().min(1).max(MAX_BONUS_POINTS),
        event: z.object({ type: z.string() }).passthrough().optional(),
      })
      .strict() as unknown as z.ZodType<BonusInput>,
  ),
);

const cardSchema = z.object({
  points: z.number().int().positive(),
  /** The event it was given for (`system:check_in_streak`): its own line, else a plain bonus. */
  event: z.string(),
  balance: z.number().int().nonnegative(),
});

const KNOWN_REASONS: ReadonlySet<string> = new Set([
  GameEventTypes.CHECK_IN_STREAK,
  GameEventTypes.QUEST_COMPLETED,
  GameEventTypes.CHAPTER_COMPLETED,
  GameEventTypes.PLAYTIME,
]);

/** `system:points_bonus`: "+50 points: a 7-day check-in streak! Balance: 60", narrated. */
export const POINTS_BONUS_CARD = CardType.of<z.infer<typeof cardSchema>>(
  "system:points_bonus",
  codec(cardSchema),
  (data) => {
    const kind = KNOWN_REASONS.has(data.event) ? data.event.replace("system:", "") : "other";
    return CardBuilder.of(
      `system.points.bonus.${kind}`,
      literal(String(data.points)),
      literal(String(data.balance)),
    ).withSpeech(translatable("system.points.bonus.speech", literal(String(data.points))));
  },
);

/**
 * `system:points_bonus`: started by an advancement rule (by default at a 7-day check-in streak): credits the rule's
 * points. The credit's ledger id is the event task's request id, one change of the points accounts, so a task that
 * runs again after a crash finds it recorded and credits nothing: exactly once.
 */
export class PointsBonusModule extends AbstractAgentModule<BonusInput> {
  constructor(
    owner: Identifier,
    private readonly options: { readonly points: PointsAccounts; readonly clock: GameClock },
  ) {
    super({
      action: BONUS_ACTION,
      writes: "state",
      description: "Give a player bonus points (advancement rules).",
      owner,
      interactive: false,
      event: true,
      eventTypes: BONUS_EVENTS,
      eventInput: true,
      // It writes the player file (not through a tool): one write step declares it a writing workflow.
      policy: { ...SIMPLE_POLICY, modelCalls: 0, toolCalls: 0, steps: 2, writeSteps: 1 },
    });
  }

  override async run(input: BonusInput, context: ExecutionContext): Promise<AgentResult> {
    const event = input.event?.type ?? "";
    const at = this.options.clock.now();
    context.checkAlive();
    const { balance } = await this.options.points.credit(context.playerId, {
      id: context.requestId,
      amount: input.points,
      reason: `bonus:${event.replace("system:", "")}`,
      at,
    });
    return AgentResult.success(
      undefined,
      present(POINTS_BONUS_CARD.card({ points: input.points, event, balance })),
    );
  }
}
