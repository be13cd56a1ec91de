import { RoutingProfile } from "../../../agent/module/routing-profile.js";
import type { SlotFactory } from "../../../agent/routing/routing-table.js";
import type { QuestBook } from "../../../data/quests/quest-book.js";
import { aboutSomeoneElse, normalizedRequest, ownRead } from "../core/own-read.js";

/** How players ask for their quests. */
export const LIST_SAMPLES = {
  zh: [
    "我有什么任务",
    "查看任务列表",
    "我现在能做哪些任务",
    "任务进度",
    "还有什么任务没完成",
    "给我看看任务",
    "下一个任务是什么",
    "我的任务",
    "任务清单",
    "可以接的任务",
    "显示所有任务",
    "还剩几个任务",
    "我做到哪个任务了",
    "有什么新任务",
    "任务完成情况",
    "查看我的任务进度",
    "任务列表",
    "我还有哪些任务",
    "现在该做什么任务",
    "未完成的任务",
    "正在进行的任务",
    "可做的任务有哪些",
    "任务书",
    "任务做得怎么样",
  ],
  en: [
    "what quests can I do",
    "show my quests",
    "quest list",
    "which quests are open",
    "what is my next quest",
    "show quest progress",
    "list the quests I can work on",
    "my quests",
    "open quests",
    "quests I have not finished",
    "what quest should I work on",
    "how far am I in the quests",
    "the quest book",
    "any new quests",
    "remaining quests",
    "quest log",
    "quests I could start",
    "quests left",
    "current quests",
    "quests still open for me",
    "unfinished quests",
    "show the quest list",
    "list all quests",
  ],
} as const;

/** How players ask about one quest: by its number in their list, its 16-hex id or its title (`<quest>`). */
export const DETAIL_SAMPLES = {
  zh: [
    "任务1详情",
    "查看第2个任务",
    "第3个任务是什么",
    "任务5怎么做",
    "打开任务4",
    "任务7要交什么",
    "任务2的奖励",
    "任务1的要求",
    "第一个任务的详情",
    "任务6怎么完成",
    "讲讲任务3",
    "任务8的说明",
    "任务4有什么奖励",
    "第二个任务的内容",
    "看一下任务2",
    "<quest>任务怎么做",
    "<quest>这个任务需要什么",
    "<quest>的奖励是什么",
    "<quest>任务详情",
    "<quest>要交什么东西",
    "讲讲<quest>",
    "<quest>是什么任务",
  ],
  en: [
    "show quest 3",
    "quest 2 details",
    "what does quest 4 require",
    "open quest 1",
    "rewards of quest 5",
    "how do I complete quest 2",
    "tell me about quest 6",
    "what are the tasks in quest 3",
    "quest info for 2",
    "details of the first quest",
    "what is quest 7 about",
    "describe quest 1",
    "what do I get for quest 2",
    "requirements of quest 5",
    "how do I do the second quest",
    "what does <quest> need",
    "how do I finish the <quest> quest",
    "tell me about <quest>",
    "<quest> details",
    "rewards of <quest>",
    "what is the <quest> quest",
    "what do I have to do for <quest>",
  ],
} as const;

/**
 * Claiming, handing in, completing for the player or skipping a quest: a change, never a direct read (asking how
 * to complete one is a read: "how do I complete quest 2", "任务6怎么完成").
 */
const QUEST_CHANGES =
  /^\s*(?:please\s+|pls\s+)?(?:complete|finish|claim|submit|skip|reset|accept|abandon|turn in|hand in)\b|\b(?:claim|submit|hand in|turn in|hand over)\b|领取|领奖|提交|交付|上交|跳过|放弃|重置|(?:帮我|给我|直接|替我)\s*(?:完成|做完|交)/;

/** The quest list's topic: a text without 任务 / quest is not about the player's quests. */
export const QUEST_TOPIC = /任务|\bquests?\b/;

const ORDINALS: ReadonlyMap<string, number> = new Map([
  ["first", 1],
  ["second", 2],
  ["third", 3],
  ["fourth", 4],
  ["fifth", 5],
  ["sixth", 6],
  ["seventh", 7],
  ["eighth", 8],
  ["ninth", 9],
  ["tenth", 10],
]);
const CHINESE_DIGITS = "零一二三四五六七八九";

/** 一 … 九十九 as a number; undefined for anything else. */
const chineseNumber = (text: string): number | undefined => {
  const digit = (char: string | undefined): number =>
    char === undefined ? -1 : CHINESE_DIGITS.indexOf(char);
  const normalized = text.replace(/两/g, "二");
  if (/^[一二三四五六七八九]$/.test(normalized)) return digit(normalized);
  const tens = /^([二三四五六七八九]?)十([一二三四五六七八九]?)$/.exec(normalized);
  if (tens === null) return undefined;
  return (tens[1] === "" ? 1 : digit(tens[1])) * 10 + (tens[2] === "" ? 0 : digit(tens[2]));
};

const HEX_ID = /(?:^|[^0-9a-z])#?([0-9a-f]{16})(?![0-9a-z])/;
const NUMBERED = [
  /\bquests?\s*(?:number|no\.?|#)?\s*(\d{1,3})\b/,
  /#(\d{1,3})\b/,
  /任务\s*(?:#|编号|号)?\s*(\d{1,3})(?!\d)/,
  /第\s*(\d{1,3})\s*(?:个|号)?\s*任务/,
  /(\d{1,3})\s*号\s*任务/,
];
const ORDINAL =
  /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|(\d{1,3})(?:st|nd|rd|th))\s+quest\b/;
const CHINESE_ORDINAL = /第\s*([一二两三四五六七八九十]{1,3})\s*(?:个|号)?\s*任务/;

/** The list number a text names (`quest 2`, `the second quest`, `第二个任务`, `任务3`); undefined when none. */
const numberIn = (text: string): number | undefined => {
  for (const pattern of NUMBERED) {
    const found = pattern.exec(text)?.[1];
    if (found !== undefined) return Number(found);
  }
  const ordinal = ORDINAL.exec(text);
  if (ordinal !== null) return ordinal[2] === undefined ? ORDINALS.get(ordinal[1] ?? "") : Number(ordinal[2]);
  const chinese = CHINESE_ORDINAL.exec(text)?.[1];
  return chinese === undefined ? undefined : chineseNumber(chinese);
};

/** Title text as matched: NFKC, lower case, punctuation as spaces, single spaces. */
const titleKey = (text: string): string =>
  normalizedRequest(text)
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

interface KnownTitle {
  readonly key: string;
  readonly title: string;
  readonly words: boolean;
}

/**
 * The titles a text may name, every language of the book: only quests that are never hidden (not `invisible`,
 * `hide` or `hide_until_deps_visible`), so whether a line routes directly never tells a player that a hidden
 * quest exists; those are still found through `/system quest <title>` once the player sees them.
 */
const knownTitles = (book: QuestBook): KnownTitle[] => {
  const titles = new Map<string, KnownTitle>();
  for (const quest of book.quests.values()) {
    if (quest.invisible || quest.hide || quest.hideUntilDepsVisible) continue;
    for (const locale of book.locales().length === 0 ? ["en_us"] : book.locales()) {
      const title = book.text(quest.title, locale).trim();
      const key = titleKey(title);
      const cjk = /[\u3400-\u9fff]/.test(key);
      if (key.length < (cjk ? 2 : 3) || titles.has(key)) continue;
      titles.set(key, { key, title, words: !cjk });
    }
  }
  return [...titles.values()].sort((left, right) => right.key.length - left.key.length);
};

/** The slot token a quest title becomes for routing (detail samples are written with it). */
export const QUEST_SLOT = "<quest>";

const escapePattern = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Marks the titles of the book's never-hidden quests as `<quest>` in routed text (after the item mentions), so
 * "砍树任务怎么完成" and "what do i need for timber" match detail samples written with the slot. A title that is
 * itself a sample or a sample's word ("help", "商店") is left alone: it would take that workflow's words away.
 * One alternation per script, longest title first: one regular expression pass per line.
 */
export const questTitleSlots =
  (book: QuestBook): SlotFactory =>
  (samples) => {
    const titles = knownTitles(book).filter((title) => !samples.has(title.key));
    const words = titles
      .filter((title) => title.words)
      .map((title) => title.key.split(" ").map(escapePattern));
    const chinese = titles
      .filter((title) => !title.words)
      .map((title) => escapePattern(title.key.replace(/ /g, "")));
    const patterns = [
      ...(words.length === 0
        ? []
        : [
            new RegExp(
              `(?<![a-z0-9])(?:${words.map((parts) => parts.join("[^a-z0-9<>]+")).join("|")})(?![a-z0-9])`,
              "g",
            ),
          ]),
      ...(chinese.length === 0 ? [] : [new RegExp(chinese.join("|"), "g")]),
    ];
    return {
      mark: (text) => patterns.reduce((marked, pattern) => marked.replace(pattern, ` ${QUEST_SLOT} `), text),
    };
  };

/** The extractors of the quest workflows over one book. */
export interface QuestExtractors {
  /** `system:quests`: a read of the player's quests that names no single quest (that one is `system:quest`'s). */
  readonly list: (text: string) => Record<string, never> | undefined;
  /** `system:quest`: the quest a text names, by 16-hex id, list number or title. */
  readonly detail: (text: string) => { query: string } | undefined;
  /** `system:quest`'s topic: the text names one quest (else the detail is not a candidate at all). */
  readonly names: (text: string) => boolean;
}

/**
 * The quest extractors: `detail` finds the quest a text names, by 16-hex id, by its number in the player's last
 * list (`quest 2`, `第二个任务`), else by the longest title of the book found in the text (as the book writes it,
 * so the workflow's search finds it); undefined when the text names none or asks for a change.
 */
export const questExtractors = (book: QuestBook): QuestExtractors => {
  const titles = knownTitles(book);
  const reference = (normalized: string): { query: string; named: string } | undefined => {
    const hex = HEX_ID.exec(normalized)?.[1];
    if (hex !== undefined) return { query: hex.toUpperCase(), named: hex };
    const number = numberIn(normalized);
    if (number !== undefined && number >= 1) return { query: String(number), named: "" };
    const key = ` ${titleKey(normalized)} `;
    for (const title of titles) {
      const found = title.words ? key.includes(` ${title.key} `) : key.includes(title.key);
      if (found) return { query: title.title, named: title.key };
    }
    return undefined;
  };
  return {
    names: (text) => reference(normalizedRequest(text)) !== undefined,
    // a text naming one quest is not a list request: the list then neither wins nor narrows the detail's margin
    list: (text) =>
      ownRead(text, QUEST_CHANGES) && reference(normalizedRequest(text)) === undefined ? {} : undefined,
    detail: (text) => {
      const normalized = normalizedRequest(text);
      if (QUEST_CHANGES.test(normalized)) return undefined;
      const found = reference(normalized);
      // the id or title named is not a player's name ("timber的奖励", "2000000000000001的奖励")
      if (found === undefined || aboutSomeoneElse(normalized.replace(found.named, " "))) return undefined;
      return { query: found.query };
    },
  };
};

const PROFILES = new WeakMap<QuestBook, QuestProfiles>();

/** The routing profiles of the quest workflows over one book. */
export interface QuestProfiles {
  readonly list: RoutingProfile<Record<string, never>>;
  readonly detail: RoutingProfile<{ query: string }>;
}

/**
 * `system:quests` reads the player's quests (its topic: 任务 / quest); `system:quest` one quest the text names (its
 * topic: a quest named at all, so a list request never has it as a candidate). Built once per book.
 */
export const questProfiles = (book: QuestBook): QuestProfiles => {
  const known = PROFILES.get(book);
  if (known !== undefined) return known;
  const extractors = questExtractors(book);
  const profiles: QuestProfiles = {
    list: RoutingProfile.read(extractors.list, LIST_SAMPLES.zh, LIST_SAMPLES.en).about(QUEST_TOPIC),
    detail: RoutingProfile.read(extractors.detail, DETAIL_SAMPLES.zh, DETAIL_SAMPLES.en).about(
      extractors.names,
    ),
  };
  PROFILES.set(book, profiles);
  return profiles;
};
