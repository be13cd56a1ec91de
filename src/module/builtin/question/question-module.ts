import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import type { Failure } from "../../../agent/failure.js";
import { PromptNames, type PromptSource } from "../../../agent/model/prompt-source.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { RoutingProfile } from "../../../agent/module/routing-profile.js";
import type { Tool } from "../../../agent/tool/tool.js";
import { ITEM_LOOKUP, ITEM_SOURCES_TOOL } from "../../../game/tools/item-tools.js";
import type { Identifier } from "../../../util/identifier.js";
import { ordersToAct } from "../core/own-read.js";
import type { DatabaseQueryInput, DatabaseQueryOutput } from "../knowledge/database-query-tool.js";
import { DATABASE_QUERY } from "../knowledge/database-query-tool.js";
import { FTB_DETAIL, FTB_FIND } from "../quests/quest-tools.js";
import type { WebAccess } from "../search/web-access.js";
import { WEB_FETCH, WEB_SEARCH } from "../search/web-tools.js";
import { answerLocally, QUERY_LIMIT } from "./local-answer.js";
import type { PlayerSwitches } from "./player-switches.js";
import { coversQuestion, findQuestSources, questKeywords, questsUsable } from "./quest-sources.js";
import { QUESTION_ACTION, type QuestionInput } from "./question-input.js";
import type { RecipeQuestions } from "./recipe-question.js";
import { summaryPrompt } from "./summary-prompt.js";
import { researchWeb } from "./web-research.js";

export interface QuestionModuleOptions {
  readonly owner?: Identifier;
  /** The shared `database.query` instance (the knowledge feature's export). */
  readonly databaseQuery: Tool<DatabaseQueryInput, DatabaseQueryOutput>;
  readonly switches: PlayerSwitches;
  readonly prompts: PromptSource;
  /** Absent: the web is never opened. */
  readonly access?: WebAccess | undefined;
  /** The feature that owns the web tools now (from the tool registry), for the live check. */
  readonly searchOwner: () => string | undefined;
  /** "How do I make X" answered with the item's card (its recipe); absent where the server has no item catalog. */
  readonly recipes?: RecipeQuestions | undefined;
}

/** Every entry of the question workflow: `/question` never grants the web, `/search` asks for it. */
const routing = (): ModuleRouting<QuestionInput> =>
  ModuleRouting.defaults<QuestionInput>()
    .command(AgentCommand.argument("<question>", (text) => ({ text, allowWeb: false }), "question", "提问"))
    .command(AgentCommand.argument("<query>", (text) => ({ text, allowWeb: true }), "search", "搜索"))
    .choice("system.question.choice")
    // Semantic samples route questions but never grant the web: the extractor always says allowWeb=false. An
    // order to act on the world or a player ("kick the griefer", "把他踢了") is no question for the knowledge base.
    .semantic(
      RoutingProfile.read(
        (text) => (ordersToAct(text) ? undefined : { text, allowWeb: false }),
        [
          "服务器规则是什么",
          "怎么领取新手礼包",
          "主城的传送点在哪里",
          "服务器有什么规定",
          "这个服务器允许pvp吗",
          "管理员有哪些人",
          "怎么申请领地",
          "服务器什么时候开放",
          "服务器禁止哪些模组",
          "服务器的群号是多少",
          "新人应该先做什么",
          "服务器地址是什么",
          "怎么加入公会",
          "商店在哪里",
          "资源区在哪",
          "怎么联系管理员",
          "服务器允许开挂吗",
          "可以用光影和材质包吗",
          "能用小地图模组吗",
          "服务器几点重启",
          "服务器维护时间",
          "可以偷东西吗",
          "能破坏别人的建筑吗",
          "出生点怎么回去",
          "主城怎么走",
          "资源区怎么传送",
          "新人礼包怎么拿",
          "怎么保护自己的家",
          "服务器有群吗",
          "整合包在哪下载",
          "模组加载不出来怎么办",
        ],
        [
          "what are the server rules",
          "how do I claim the starter kit",
          "where is the spawn teleport",
          "is pvp allowed on this server",
          "who are the admins",
          "how do I claim land",
          "when does the server restart",
          "is griefing allowed here",
          "where is the server shop",
          "how do I join a town",
          "which mods are banned",
          "where is the resource world",
          "how do I contact staff",
          "what is the discord link",
          "are there rules about building",
          "what should new players do first",
          "are hacks allowed",
          "can I use shaders and texture packs",
          "is a minimap mod allowed",
          "how do I set up the modpack",
          "a mod is not working for me",
          "maintenance schedule",
          "is stealing allowed here",
          "can I break other players' builds",
          "how do I get back to spawn",
          "how do I get to the main town",
          "how do I protect my house",
          "is there a discord server",
          "what is the server address",
          "where is the nether hub",
          "who is the server owner",
        ],
      ),
    );

/**
 * `system:question`: database first. Local hits are answered from the knowledge base (one summary at most,
 * re-verified before sending, or the stored text itself); while the quests feature is enabled for the player,
 * the quests matching the question are read too (read-only `ftb.find`/`ftb.detail`) and answer alongside the
 * entries, or alone when the knowledge base has nothing. Only an empty local result (no entry, no quest) with
 * `allowWeb`, the search feature enabled and external services allowed opens this request's web gate.
 */
export class QuestionModule extends AbstractAgentModule<QuestionInput> {
  constructor(private readonly options: QuestionModuleOptions) {
    super({
      action: QUESTION_ACTION,
      writes: "none",
      description: "Answer a question from the server's knowledge base (web search only when allowed).",
      tools: [options.databaseQuery as unknown as Tool<never, unknown>],
      optionalTools: [WEB_SEARCH, WEB_FETCH, FTB_FIND, FTB_DETAIL, ITEM_LOOKUP, ITEM_SOURCES_TOOL] as never,
      ...(options.owner === undefined ? {} : { owner: options.owner }),
      routing: routing(),
    });
  }

  async run(input: QuestionInput, context: ExecutionContext): Promise<AgentResult> {
    context.checkInput(input.text);
    // "how do I make a diamond pickaxe" is about the item's recipe, not about text that mentions diamonds
    const recipe = await this.options.recipes?.answer(input.text, context);
    if (recipe !== undefined) return recipe;
    const found = await context.tool(DATABASE_QUERY, "query", { query: input.text, limit: QUERY_LIMIT });
    // the relevance floor: an entry must hold at least half of the question's content words, not one character
    const keywords = questKeywords(input.text);
    const local = {
      entries: found.entries.filter((entry) =>
        coversQuestion(`${entry.title}\n${entry.text}`, keywords, ENTRY_SHARE),
      ),
    };
    const switches = this.options.switches;
    const playerId = context.playerId;
    const withQuests = questsUsable(context);
    const summarize =
      (local.entries.length > 0 || withQuests) &&
      switches.aiEnabled(playerId) &&
      (await switches.externalAllowed(playerId));
    // Quest text is data: it may answer, never widen what this request may do (no web, no other tool). The
    // summary's model call and re-check keep their share of the budget: the quest search never uses it.
    const quests = withQuests
      ? await findQuestSources(context, input.text, { tools: summarize ? 1 : 0, steps: summarize ? 2 : 0 })
      : [];
    if (local.entries.length > 0 || quests.length > 0) {
      return answerLocally({
        context,
        question: input.text,
        entries: local.entries,
        quests,
        summarize,
        prompt: summaryPrompt(this.options.prompts),
      });
    }
    const access = this.options.access;
    if (access === undefined || !(await this.#webAllowed(input, context))) return notFound(input.text);
    const searchOwner = this.options.searchOwner() ?? "";
    const gate = access.open(context.requestId, playerId, {
      allowWeb: input.allowWeb,
      featureEnabled: () => switches.featureEnabled(playerId, searchOwner),
      external: () => switches.externalAllowed(playerId),
    });
    try {
      const guard = (): Failure | undefined => {
        if (!switches.aiEnabled(playerId)) return AgentFailure.AI_DISABLED;
        return switches.featureEnabled(playerId, searchOwner)
          ? undefined
          : AgentFailure.MODULE_DISABLED.with(searchOwner);
      };
      return await researchWeb({
        context,
        question: input.text,
        prompt: this.options.prompts.get(PromptNames.WEB_SEARCH),
        gate,
        guard,
      });
    } finally {
      access.close(gate);
    }
  }

  /** Local empty AND allowWeb AND the search feature enabled AND AI and external services allowed AND a loop budget. */
  async #webAllowed(input: QuestionInput, context: ExecutionContext): Promise<boolean> {
    if (!input.allowWeb || context.policy.reactIterations <= 0) return false;
    if (!context.canUse(WEB_SEARCH) || !context.canUse(WEB_FETCH)) return false;
    const owner = this.options.searchOwner();
    const switches = this.options.switches;
    if (owner === undefined || !switches.featureEnabled(context.playerId, owner)) return false;
    return switches.aiEnabled(context.playerId) && (await switches.externalAllowed(context.playerId));
  }
}

/** The share of a question's content words a knowledge entry (the server's own text) must hold. */
const ENTRY_SHARE = 1 / 2;

const notFound = (text: string): AgentResult => AgentResult.error(AgentFailure.NOT_FOUND.with(text));
