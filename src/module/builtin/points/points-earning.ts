import { z } from "zod";
import { AgentResult } from "../../../agent/agent-result.js";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinLines, present } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { RoutingProfile } from "../../../agent/module/routing-profile.js";
import { literal, type Text, translatable } from "../../../agent/text.js";
import { GameEventTypes } from "../../../game/game-events.js";
import { codec } from "../../../util/codec.js";
import { ownRead } from "../core/own-read.js";
import { DAILY_CHECK_IN, type EarningWay, type PointsSources } from "../storage/points-sources.js";
import { BONUS_EVENTS } from "./points-bonus.js";

/** The most ways the card lists (a server with more rules shows the first ones). */
export const MAX_EARNING_WAYS = 20;

/** How players ask how points are earned (not how many they have, nor how many they earned). */
const EARNING_SAMPLES = {
  zh: [
    "积分怎么赚",
    "怎么获得积分",
    "如何赚积分",
    "积分从哪里来",
    "怎样才能得到积分",
    "积分怎么获取",
    "怎么得积分",
    "做什么能加积分",
    "积分获取方式",
    "怎么赚更多积分",
    "赚积分的方法",
    "怎么快速赚钱",
    "积分怎么拿",
    "哪里可以赚积分",
    "积分有哪些来源",
  ],
  en: [
    "how do I get more points",
    "how do I earn points",
    "how to earn points",
    "ways to earn points",
    "how can I get points",
    "where do points come from",
    "how do you get points",
    "what gives points",
    "best way to get points",
    "what can I do to earn points",
    "how are points earned",
    "how do I gain points",
    "how do I make more money here",
    "how to get coins",
    "how do I earn more points",
  ],
} as const;

/** Points are the subject… */
const POINTS_TOPIC = /积分|分数|点数|钱|\bpoints?\b|\bmoney\b|\bcoins?\b|\bcurrency\b|\bcash\b|\bcredits?\b/;
/** …and how to come by them: a question on earning, never a past gain ("how many did I earn": the balance). */
const EARN_WORDS =
  /\b(?:earn|earning|earned|gain|gained|get|getting|make|making|farm|obtain|obtained|gives?|given)\b|come from|赚|刷|获得|获取|得到|怎么得|拿到?|加分|来源|从哪/;
const PAST_OR_AMOUNT =
  /\b(?:did|have|has|had)\s+i\b|\bi(?:'ve|\s+have)?\s+earned\b|\bhow\s+(?:many|much)\b.*\b(?:have|did|got|left)\b|赚了|刷了|拿了|获得了|赚到的|得到的|攒|有多少|剩/;

/** Whether a text asks how points are earned ("how do I get more points", 积分怎么赚), not a balance. */
export const asksHowToEarn = (text: string): boolean => {
  const normalized = text.normalize("NFKC").toLowerCase();
  return POINTS_TOPIC.test(normalized) && EARN_WORDS.test(normalized) && !PAST_OR_AMOUNT.test(normalized);
};

/**
 * Giving, moving or spending points (give, transfer, 转给, 给他加10分, 扣…): a change, never a read of the balance nor
 * of how points are earned.
 */
export const POINTS_CHANGES =
  /\b(give|giving|transfer|send|pay|spend|add|take|remove|reset|set|buy)\b|转给|转账|转让|送给|给.{0,16}[加扣减送转\d一二两三四五六七八九十百千]|[加扣减]\s*\d|扣|清零|花掉|买/;

type EarningInput = Record<string, never>;
export const POINTS_EARNING_ACTION = ActionType.of<EarningInput>(
  "system:points_earning",
  codec(z.object({}).strict() as z.ZodType<EarningInput>),
);

const waySchema = z.object({
  event: z.string(),
  points: z.number().int().positive(),
  conditions: z.record(z.string(), z.union([z.string(), z.number()])),
  repeat: z.enum(["once", "daily", "always"]),
  /** The reader's name of the condition's value (a mob's name), when there is one. */
  label: z.string().optional(),
});
const earningSchema = z.object({ ways: z.array(waySchema).max(MAX_EARNING_WAYS) });
export type PointsEarningCardData = z.infer<typeof earningSchema>;

/** An id as a player reads it: its namespace dropped when it is the game's, `_` as spaces (`the nether`). */
const idText = (value: string | number): Text => {
  const text = String(value);
  return literal(
    (text.startsWith("minecraft:") ? text.slice("minecraft:".length) : text).replaceAll("_", " "),
  );
};

/** Vanilla's dimensions, which the card names in the reader's language (a mod's by its id). */
const VANILLA_DIMENSIONS: ReadonlySet<string> = new Set([
  "minecraft:overworld",
  "minecraft:the_nether",
  "minecraft:the_end",
]);

/** The condition a way's event line names (the streak, the quest…), by event: its key. */
const CONDITION_OF: Readonly<Record<string, string>> = {
  [GameEventTypes.CHECK_IN_STREAK]: "streak",
  [GameEventTypes.QUEST_COMPLETED]: "quest",
  [GameEventTypes.CHAPTER_COMPLETED]: "chapter",
  [GameEventTypes.KILL]: "entity",
  [GameEventTypes.DIMENSION_CHANGE]: "dimension",
  [GameEventTypes.ADVANCEMENT]: "advancement",
  [GameEventTypes.ORDER_DELIVERED]: "entry",
};

/** What a way asks of the player, as one clause ("Check in 7 days in a row", "Play 60 minutes in all"). */
export const wayText = (way: PointsEarningCardData["ways"][number]): Text => {
  if (way.event === DAILY_CHECK_IN) return translatable("system.points.earn.event.check_in");
  if (way.event === GameEventTypes.PLAYTIME) {
    const total = way.conditions.total;
    const minutes = way.conditions.minutes;
    if (total !== undefined)
      return translatable("system.points.earn.event.playtime.total", literal(String(total)));
    if (minutes !== undefined)
      return translatable("system.points.earn.event.playtime.session", literal(String(minutes)));
    return translatable("system.points.earn.event.playtime");
  }
  const name = way.event.slice(way.event.indexOf(":") + 1);
  const key = CONDITION_OF[way.event];
  const wanted = key === undefined ? undefined : way.conditions[key];
  if (way.event === GameEventTypes.CHECK_IN_STREAK && wanted !== undefined)
    return translatable("system.points.earn.event.check_in_streak.days", literal(String(wanted)));
  if (wanted !== undefined) {
    const dimension =
      way.event === GameEventTypes.DIMENSION_CHANGE && VANILLA_DIMENSIONS.has(String(wanted).toLowerCase())
        ? translatable(`system.points.earn.dimension.${String(wanted).toLowerCase().replace(":", ".")}`)
        : undefined;
    return translatable(
      `system.points.earn.event.${name}.named`,
      dimension ?? (way.label === undefined ? idText(wanted) : literal(way.label)),
    );
  }
  if (BONUS_EVENTS.includes(way.event)) return translatable(`system.points.earn.event.${name}`);
  return idText(way.event);
};

/** `system:points_earning`: every way this server gives the player points, how many and how often. */
export const POINTS_EARNING_CARD = CardType.of<PointsEarningCardData>(
  "system:points_earning",
  codec(earningSchema),
  (data) => {
    if (data.ways.length === 0) return CardBuilder.of("system.points.earn.none");
    const builder = CardBuilder.of(
      "system.points.earn",
      joinLines(
        data.ways.map((way) =>
          translatable(`system.points.earn.line.${way.repeat}`, wayText(way), literal(String(way.points))),
        ),
      ),
    );
    if (data.ways.some((way) => way.event === DAILY_CHECK_IN))
      builder.labelledButton({
        labelKey: "system.points.earn.check_in_button",
        action: DAILY_CHECK_IN,
        args: ["{}"],
        hoverKey: "system.help.runs",
        hoverArgs: ["/system checkin"],
      });
    builder.labelledButton({
      labelKey: "system.points.earn.balance_button",
      action: "system:balance",
      args: ["{}"],
      hoverKey: "system.help.runs",
      hoverArgs: ["/system balance"],
    });
    return builder;
  },
);

/** The ways that are this player's: those of no feature, or of a feature the player has. */
const waysFor = (ways: readonly EarningWay[], features: ReadonlySet<string>): EarningWay[] =>
  ways.filter((way) => way.points > 0 && (way.feature === undefined || features.has(way.feature)));

/**
 * `system:points_earning` (`/system earn`, `/system 赚积分`, "how do I get more points", 积分怎么赚): how this server
 * gives points — the daily check-in's and every enabled advancement rule that gives bonus points — read from
 * {@link PointsSources} at each request, so a reload's new rules show at once.
 */
export class PointsEarningModule extends AbstractAgentModule<EarningInput> {
  /** `entityName`: a mob's name in a locale (the item catalog's), for kill rules; without it the card shows the id. */
  constructor(
    private readonly sources: PointsSources,
    private readonly entityName?: (id: string, locale: string) => string,
  ) {
    super({
      action: POINTS_EARNING_ACTION,
      writes: "none",
      description: "How this server gives points: check-in, bonuses for events.",
      routing: ModuleRouting.defaults<EarningInput>()
        .command(AgentCommand.literal<EarningInput>({}, "earn", "赚积分"))
        .semantic(
          RoutingProfile.read<EarningInput>(
            (text) => (ownRead(text, POINTS_CHANGES) ? {} : undefined),
            EARNING_SAMPLES.zh,
            EARNING_SAMPLES.en,
          ).about(asksHowToEarn),
        ),
    });
  }

  override async run(_input: EarningInput, context: ExecutionContext): Promise<AgentResult> {
    const ways = waysFor(this.sources.ways(), context.features)
      // the check-in first: the way every player has each day
      .sort((a, b) => Number(b.event === DAILY_CHECK_IN) - Number(a.event === DAILY_CHECK_IN))
      .slice(0, MAX_EARNING_WAYS)
      .map(({ event, points, conditions, repeat }) => {
        const entity = event === GameEventTypes.KILL ? conditions.entity : undefined;
        const label =
          typeof entity === "string" && this.entityName !== undefined
            ? this.entityName(entity, context.locale)
            : undefined;
        return {
          event,
          points,
          conditions: { ...conditions },
          repeat,
          ...(label === undefined ? {} : { label }),
        };
      });
    return AgentResult.success(undefined, present(POINTS_EARNING_CARD.card({ ways })));
  }
}
