import { z } from "zod";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import { commandHelp } from "../../../agent/command/command-help.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import type { ModuleRegistry } from "../../../agent/module/module-registry.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { RoutingProfile } from "../../../agent/module/routing-profile.js";
import type { Availability } from "../../../agent/routing/routing-player.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import type { Languages } from "../../../util/language.js";
import { HELP_CARD, type HelpCardEntry } from "./help-card.js";

/** Help takes no arguments. */
export type HelpInput = Record<string, never>;
export const HELP_ACTION = ActionType.of<HelpInput>(
  "system:help",
  codec(z.object({}).strict() as z.ZodType<HelpInput>),
);

/** The translation key of a module's help description: `system.help.module.<namespace>.<path>`. */
export const helpDescriptionKey = (moduleId: Identifier): string =>
  `system.help.module.${moduleId.namespace}.${moduleId.path.replace(/\//g, ".")}`;

export interface HelpModuleOptions {
  readonly owner: Identifier;
  readonly modules: () => ModuleRegistry;
  readonly languages: Languages | undefined;
  readonly permissionLevel: (playerId: string) => number;
  /** The host's extra module filter (the one HybridRouter uses); everything passes when absent. */
  readonly availability?: Availability | undefined;
}

/**
 * `system:help`: generated from the registries at request time, through the same availability filter as
 * routing (the player's enabled features and `requires`); features not installed registered nothing to show.
 */
export class HelpModule extends AbstractAgentModule<HelpInput> {
  constructor(private readonly options: HelpModuleOptions) {
    super({
      action: HELP_ACTION,
      writes: "none",
      description: "List the commands and workflows the player can use now.",
      owner: options.owner,
      routing: ModuleRouting.defaults<HelpInput>()
        .command(AgentCommand.literal<HelpInput>({}, "help", "帮助"))
        .semantic(
          RoutingProfile.read<HelpInput>(
            () => ({}),
            [
              "帮助",
              "你能做什么",
              "有哪些指令可以用",
              "显示帮助",
              "命令列表",
              "有什么命令",
              "你有哪些功能",
              "给我看看所有指令",
              "能用的命令有哪些",
              "帮助菜单",
              "使用说明",
              "功能介绍",
              "这个助手怎么使用",
              "列出所有命令",
              "指令大全",
              "怎么用你",
              "机器人的用法",
              "有哪些功能",
              "帮助说明",
              "可以用哪些指令",
              "所有功能",
              "都有什么功能",
            ],
            [
              "help",
              "what can you do",
              "which commands can I use",
              "show help",
              "list commands",
              "command list",
              "what commands are available",
              "help menu",
              "show me all commands",
              "what features do you have",
              "usage guide",
              "list of commands",
              "what can I ask you",
              "show the help page",
              "what are your commands",
              "how do I use System",
              "what can this bot do",
              "display every command",
              "all the features",
              "how does the bot work",
              "assistant commands",
              "what does the assistant do",
            ],
          ),
        )
        .shortcut("system.help.shortcut", {}),
    });
  }

  override async run(_input: HelpInput, context: ExecutionContext): Promise<AgentResult> {
    return AgentResult.success(undefined, present(HELP_CARD.card({ entries: this.entries(context) })));
  }

  /** The lines of one player's help, in registration order. */
  entries(context: Pick<ExecutionContext, "playerId" | "features" | "locale">): HelpCardEntry[] {
    const registry = this.options.modules();
    const identity = {
      playerId: context.playerId,
      permissionLevel: this.options.permissionLevel(context.playerId),
      features: context.features,
    };
    const usages = new Map(
      commandHelp(registry.commands(), identity).map((entry) => [entry.moduleId, entry.usages]),
    );
    const chinese = context.locale.toLowerCase().startsWith("zh");
    const entries: HelpCardEntry[] = [];
    for (const module of registry.values()) {
      if (!module.interactive) continue;
      if (!registry.usable(module.id, context.features)) continue;
      const id = module.id.toString();
      if (this.options.availability?.(context.playerId, id) === false) continue;
      const routing = registry.routing(module.id);
      const lines = usages.get(id) ?? [];
      if (lines.length === 0 && routing.selection === "structured_only") continue;
      const key = helpDescriptionKey(module.id);
      const samples = chinese ? routing.profile?.zh : routing.profile?.en;
      const example = samples?.[0] ?? (chinese ? routing.profile?.en[0] : routing.profile?.zh[0]);
      entries.push({
        moduleId: id,
        usages: lines.slice(0, 16),
        ...(this.options.languages?.has("en_us", key) === true ? { descriptionKey: key } : {}),
        description: module.description,
        ...(example === undefined ? {} : { example }),
      });
    }
    return entries.slice(0, 64);
  }
}
