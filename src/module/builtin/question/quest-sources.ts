import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { type Failure, failureIn } from "../../../agent/failure.js";
import { FTB_DETAIL, FTB_FIND } from "../quests/quest-tools.js";
import type { QuestOutput } from "../quests/quest-views.js";

/** Quests read (ftb.detail) and used as sources of one answer. */
export const MAX_QUEST_SOURCES = 2;
/** `ftb.find` calls of one question: all keywords, then the longest keyword alone. */
export const MAX_QUEST_FINDS = 2;
const FIND_TEXT_CHARS = 100;
const MAX_KEYWORDS = 6;
const DESCRIPTION_LINES = 16;
const LINE_CHARS = 500;
const TASKS = 8;

/** One quest as an answer source: its text in the asking player's language (untrusted data, only ever quoted). */
export interface QuestSource {
  readonly id: string;
  readonly title: string;
  readonly subtitle: string;
  readonly description: readonly string[];
  readonly tasks: readonly string[];
}

/** Quest failures after which the answer goes on without (more) quests; anything else ends the request. */
const SKIPPABLE: ReadonlySet<Failure> = new Set<Failure>([
  AgentFailure.NOT_FOUND,
  AgentFailure.MODULE_DISABLED,
  AgentFailure.TOOL_NOT_ALLOWED,
  AgentFailure.BUDGET_EXHAUSTED,
  AgentFailure.MODULE_FAILED,
  AgentFailure.INPUT_INVALID,
]);

/** Question words that never name a quest (English and Chinese); `ftb.find` wants every word in a quest's text. */
const STOP_WORDS: ReadonlySet<string> = new Set([
  ..."a an the and or what's how's where's what’s how’s where’s i'm i’m of to in on at for with from by about into is are was be been am do does did done doing how what which who whom whose where when why can could should would will shall may might must i me my mine you your we our us it its this that these those there here he she they them his her their please tell show explain help need want get got make finish finishing complete completing completed start starting begin beat pass solve work way ways thing things quest quests task tasks mission missions objective objectives step steps guide tip tips hint hints question questions answer wiki any some all just also then so not no yes one".split(
    " ",
  ),
  ..."任务 任务书 章节 怎么 怎样 如何 怎么样 怎么办 什么 哪个 哪些 哪里 哪儿 为什么 请问 请 告诉 一下 我 我的 你 你的 他 她 它 这个 那个 这 那 的 了 吗 呢 吧 啊 呀 是 在 要 想 能 会 可以 应该 需要 有 没有 做 完成 达成 通过 开始 搞 弄 办 个 去 用 和 与 及 或 还是 攻略 提示 帮 帮我 查 查询 知道".split(
    " ",
  ),
]);

const SEGMENTER = new Intl.Segmenter("zh", { granularity: "word" });

/**
 * The words of a question that may name a quest: word segments (Chinese is segmented, `砍树任务怎么做` → 砍树),
 * lower case, question and filler words dropped, single Latin letters dropped, each once, at most six.
 */
export const questKeywords = (question: string): string[] => {
  const words: string[] = [];
  let keptEnd = -1;
  for (const segment of SEGMENTER.segment(question.normalize("NFKC").toLowerCase())) {
    const word = segment.segment.trim();
    if (segment.isWordLike !== true || word.length === 0) continue;
    // a lone Chinese character the segmenter split off a kept word stays part of it (服务|器 → 服务器, 钻石|镐 → 钻石镐)
    const last = words.at(-1);
    if (
      !STOP_WORDS.has(word) &&
      /^\p{Script=Han}$/u.test(word) &&
      last !== undefined &&
      keptEnd === segment.index &&
      /\p{Script=Han}$/u.test(last)
    ) {
      words[words.length - 1] = `${last}${word}`;
      keptEnd = segment.index + segment.segment.length;
      continue;
    }
    if (STOP_WORDS.has(word) || /^[\p{Script=Latin}\d]$/u.test(word)) continue;
    if (!words.includes(word)) words.push(word);
    keptEnd = segment.index + segment.segment.length;
  }
  return words.slice(0, MAX_KEYWORDS);
};

/** The `ftb.find` texts of a question, in order: all keywords, then (when several) the longest one alone. */
export const questQueries = (keywords: readonly string[]): string[] => {
  if (keywords.length === 0) return [];
  const all: string[] = [];
  for (const word of keywords) if ([...all, word].join(" ").length <= FIND_TEXT_CHARS) all.push(word);
  const queries = all.length === 0 ? [] : [all.join(" ")];
  if (keywords.length > 1) {
    const longest = [...keywords].sort((left, right) => [...right].length - [...left].length)[0] as string;
    const alone = longest.slice(0, FIND_TEXT_CHARS);
    if (!queries.includes(alone)) queries.push(alone);
  }
  return queries.slice(0, MAX_QUEST_FINDS);
};

/** How many of a question's content words (questKeywords) a source's text contains; a plural "s" is tolerated. */
export const coveredWords = (text: string, keywords: readonly string[]): number => {
  const haystack = text.normalize("NFKC").toLowerCase();
  return keywords.filter(
    (word) =>
      haystack.includes(word) ||
      (word.length > 3 && word.endsWith("s") && haystack.includes(word.slice(0, -1))),
  ).length;
};

/**
 * The relevance floor of an answer's source: it must contain the question's content words (all of one or two,
 * two of three, …; `share` of them rounded up), not merely share a character or one word of several with it.
 */
export const coversQuestion = (text: string, keywords: readonly string[], share = 2 / 3): boolean =>
  keywords.length === 0 || coveredWords(text, keywords) >= Math.ceil(keywords.length * share);

/** The text of a quest source the relevance floor reads: title, subtitle, description and tasks. */
const sourceText = (quest: QuestSource): string => [quest.title, questText(quest)].join("\n");

/** Whether this request may read quests now: the quests feature is installed and enabled for the player. */
export const questsUsable = (context: ExecutionContext): boolean =>
  context.canUse(FTB_FIND) && context.canUse(FTB_DETAIL);

/** Tool calls this request may still make, keeping `reserve` calls (and steps) for later steps of the answer. */
const callsLeft = (context: ExecutionContext, reserve: { tools: number; steps: number }): number => {
  const { policy, counters } = context;
  return Math.min(
    policy.toolCalls - counters.toolCalls - reserve.tools,
    policy.steps - counters.steps - reserve.steps,
  );
};

/** What a quest contributes as a source: title, subtitle, description lines and task names, trimmed. */
export const questSource = (quest: QuestOutput): QuestSource => ({
  id: quest.id,
  title: quest.title.slice(0, 300),
  subtitle: quest.subtitle.slice(0, 300),
  description: quest.description
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .slice(0, DESCRIPTION_LINES)
    .map((line) => line.slice(0, LINE_CHARS)),
  tasks: quest.tasks.slice(0, TASKS).map((task) => task.title.slice(0, 300)),
});

/** The text a summary reads for a quest (data inside the model's user message, never instructions). */
export const questText = (quest: QuestSource): string =>
  [
    ...(quest.subtitle.length > 0 ? [quest.subtitle] : []),
    ...quest.description,
    ...(quest.tasks.length > 0 ? [`Tasks: ${quest.tasks.join(", ")}`] : []),
  ].join("\n");

/**
 * Quests that may answer a question, read with the quests feature's read-only tools: nothing (and no call) when
 * the feature is not installed or not enabled for the player; otherwise at most MAX_QUEST_FINDS `ftb.find`
 * calls with the question's keywords and one `ftb.detail` for each of the best MAX_QUEST_SOURCES hits, never
 * beyond the request's budget minus `reserve`. Hidden quests stay hidden: the tools answer only what the player
 * can see. A quest failure (disabled meanwhile, not found, budget) ends the quest search, never the answer.
 */
export const findQuestSources = async (
  context: ExecutionContext,
  question: string,
  reserve: { readonly tools: number; readonly steps: number },
): Promise<QuestSource[]> => {
  if (!questsUsable(context)) return [];
  const sources: QuestSource[] = [];
  const keywords = questKeywords(question);
  try {
    let found: readonly { id: string }[] = [];
    for (const [index, text] of questQueries(keywords).entries()) {
      // a find is only worth it when a detail can follow
      if (callsLeft(context, reserve) < 2) break;
      found = (await context.tool(FTB_FIND, `quests/find${index + 1}`, { text })).quests;
      if (found.length > 0) break;
    }
    for (const [index, brief] of found.slice(0, MAX_QUEST_SOURCES).entries()) {
      if (callsLeft(context, reserve) < 1 || !questsUsable(context)) break;
      try {
        const detail = await context.tool(FTB_DETAIL, `quests/detail${index + 1}`, { quest: brief.id });
        const source = questSource(detail);
        // a quest found by one word of the question ("服务器" of "服务器规则是什么") does not answer it
        if (coversQuestion(sourceText(source), keywords)) sources.push(source);
      } catch (error) {
        if (!failureIn(AgentException.failure(error), new Set([AgentFailure.NOT_FOUND]))) throw error;
      }
    }
  } catch (error) {
    // the request itself ended (cancelled, deadline, standing lost): that is never swallowed
    context.checkAlive();
    if (!failureIn(AgentException.failure(error), SKIPPABLE)) throw error;
  }
  return sources;
};
