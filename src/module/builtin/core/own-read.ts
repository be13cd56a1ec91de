import { RoutingProfile } from "../../../agent/module/routing-profile.js";

/**
 * What the extractors of the read-only workflows (balance, orders, shop list, quests, mode) share: a direct route
 * is taken only for a request to read the speaker's own data, never for a change ("give me 100 points", "cancel
 * my order", "切换到简单模式") nor for someone else's data ("how many points does steve have", "steve的订单"), which
 * fall back to the model or the candidate card.
 */

/** Words before `'s` or `does … have` that name no player (`what's`, `the shop's prices`, `does it have`). */
const NOT_PLAYERS =
  "what|where|who|how|it|that|there|here|let|i|you|this|the|my|your|shop|store|server|system|assistant|quest|today|everyone";

/** Someone else's data: 他/她/别人, his/her/their, `steve's`, `steve的`, `steve有`, `does steve have`. */
const SOMEONE_ELSE = new RegExp(
  [
    "他|她|别人|其他人|其他玩家",
    "[a-z0-9_]{3,16}\\s*的|[a-z][a-z0-9_]{2,15}\\s*(?:有|还有|现在|买了|在哪)",
    "\\b(?:his|her|their|someone|others?|player's)\\b",
    `\\b(?!(?:${NOT_PLAYERS})'s\\b)[a-z0-9_]{2,16}'s\\b`,
    `\\b(?:does|did|has)\\s+(?!(?:${NOT_PLAYERS})\\b)[a-z0-9_]{3,16}\\s+(?:have|got|own|buy|bought|order|ordered)\\b`,
  ].join("|"),
);

/**
 * A line that orders System to act on the world, a player or a store (kick, give, remove, buy…; 踢, 给我一把,
 * 删除…): it starts with the verb. No read takes it; it is the model's, or the player's explicit command.
 */
const ORDERS_TO_ACT =
  /^\s*(?:please\s+|pls\s+)?(?:kick|ban|unban|mute|tp|teleport|give|kill|spawn|summon|set|put|clear|heal|feed|op|deop|fly|gamemode|whitelist|remove|delete|add|sell|buy|purchase|drop|get me|bring me|claim|submit|redeem)\b|^\s*(?:请|帮我|麻烦)?\s*(?:踢|封禁|封了|禁言|传送|杀|召唤|清除|清空|设置|删除|移除|添加|卖掉|购买|买|把|领取|提交|兑换|签到|打卡|给我(?!讲|说|看|介绍|解释|列|查|显示))/;

/** Whether a line orders an action rather than asks (`ORDERS_TO_ACT`). */
export const ordersToAct = (text: string): boolean => ORDERS_TO_ACT.test(normalizedRequest(text));

/** A text in the form the patterns read: NFKC (full-width → half-width) and lower case. */
export const normalizedRequest = (text: string): string => text.normalize("NFKC").toLowerCase();

/** Whether a text asks about another player's data rather than the speaker's own. */
export const aboutSomeoneElse = (text: string): boolean => {
  const normalized = normalizedRequest(text);
  // "my" and "我的" are the speaker: "我的订单" is not someone's 的
  return SOMEONE_ELSE.test(normalized.replace(/我的|我们的|你的/g, " "));
};

/**
 * Whether a text is a read of the speaker's own data: not about someone else and no word of `changes` (the
 * workflow's write verbs: give, transfer, cancel, switch…; tested on NFKC, lower-case text). The subject itself is
 * the routing profile's topic (`RoutingProfile.about`).
 */
export const ownRead = (text: string, changes: RegExp): boolean =>
  !changes.test(normalizedRequest(text)) && !aboutSomeoneElse(text);

/** What a read-only workflow's text is about, and the changes that make it no read. */
export interface ReadWords {
  /** The workflow's subject (积分/points, 订单/orders…): the profile's topic. */
  readonly topic: RegExp;
  /** The workflow's write verbs (give, transfer, cancel, switch…). */
  readonly changes: RegExp;
}

/**
 * The read profile of a workflow without arguments (balance, orders, the shop list, the mode): it routes directly a
 * text on its topic that reads the speaker's own data, with the empty input.
 */
export const ownReadProfile = (
  words: ReadWords,
  samples: { readonly zh: readonly string[]; readonly en: readonly string[] },
): RoutingProfile<Record<string, never>> =>
  RoutingProfile.read<Record<string, never>>(
    (text) => (ownRead(text, words.changes) ? {} : undefined),
    samples.zh,
    samples.en,
  ).about(words.topic);
