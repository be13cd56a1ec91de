import { z } from "zod";
import { AgentResult } from "../../../agent/agent-result.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { type Text, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";
import type { CoreServices } from "./core-services.js";
import { ownReadProfile, type ReadWords } from "./own-read.js";

/**
 * How players ask which execution mode System uses for them. Always named as System's mode (执行模式, 助手模式,
 * AI 模式, assistant / execution mode): a bare "what mode am I in" is the game mode, `system:player_query`'s.
 */
const MODE_SAMPLES = {
  zh: [
    "我的执行模式",
    "查看我的执行模式",
    "我是什么执行模式",
    "助手模式",
    "我的AI模式",
    "执行模式查询",
    "我可以选择哪些执行模式",
    "哪些执行模式可以用",
    "助手的工作模式",
    "我的助手是什么模式",
    "我的执行模式是谁设置的",
    "我的模式是管理员设的吗",
    "看看现在的执行模式",
    "允许的执行模式有哪些",
    "系统模式",
    "AI现在用的什么模式",
  ],
  en: [
    "which execution mode applies to me",
    "show my execution mode",
    "my execution mode",
    "which execution mode do I have",
    "what mode is System using for me",
    "assistant mode",
    "my ai mode",
    "which execution modes may I choose",
    "allowed execution modes",
    "who set my execution mode",
    "is my mode simple or routing",
    "current execution mode",
    "execution mode status",
    "which assistant modes are available to me",
    "system mode",
    "am I in simple mode",
  ],
} as const;

/**
 * The mode is the subject. Choosing one ("switch me to full mode", "切换到简单模式", "设置执行模式为ask":
 * `/system mode <mode>`) or the game mode's words (creative, 生存) are never a direct read of the execution mode.
 */
const MODE_WORDS: ReadWords = {
  topic: /模式|\bmodes?\b/,
  changes:
    /(?:为|成|到)\s*(?:simple|routing|ask|full|简单|路由|提问|问答|完整|自由)|\b(?:switch|change|turn|put|make|enable|disable|activate|go|move)\b|(?<!who\s)\bset\b|\b(?:choose|pick|select|use)\s+(?:the\s+)?(?:simple|routing|ask|full)\b|切换|换成|换到|换为|改成|改为|改到|设为|设成|设置为|调成|调到|开启|关闭|进入|切到|选择?\s*(?:simple|routing|ask|full|简单|路由|提问|问答|完整|自由)|游戏模式|\bgame ?mode\b|\b(?:creative|survival|adventure|spectator|hardcore)\b|创造|生存|冒险|旁观|极限/,
};

/** A player's mode, who decided it, and the modes players may choose (`/system mode` says the same). */
export const modeText = (services: CoreServices, playerId: string): Text => {
  const current = services.modeOf(playerId);
  return translatable(`system.mode.show.${current.source}`, current.mode, current.allowed.join(", "));
};

type ModeShowInput = Record<string, never>;
export const MODE_SHOW_ACTION = ActionType.of<ModeShowInput>(
  "system:mode_show",
  codec(z.object({}).strict() as z.ZodType<ModeShowInput>),
);

/**
 * `system:mode_show`: the player's execution mode, who decided it and the modes they may choose, as plain
 * language reaches it ("我的执行模式", "what is my execution mode") without a model. The same answer as
 * `/system mode`, whose module also changes modes and is therefore reached by its command only.
 */
export class ModeShowModule extends AbstractAgentModule<ModeShowInput> {
  constructor(private readonly services: CoreServices) {
    super({
      action: MODE_SHOW_ACTION,
      writes: "none",
      description: "Show the player's execution mode, who set it, and the modes they may choose.",
      routing: ModuleRouting.defaults<ModeShowInput>().semantic(ownReadProfile(MODE_WORDS, MODE_SAMPLES)),
    });
  }

  override async run(_input: ModeShowInput, context: ExecutionContext): Promise<AgentResult> {
    return AgentResult.success(modeText(this.services, context.playerId));
  }
}
