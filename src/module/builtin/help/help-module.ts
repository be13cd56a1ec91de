import { literal } from "@jsprismarine/brigadier";
import { z } from "zod";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { CommandSource } from "../../../agent/command/command-source.js";
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
import { isAdmin } from "../core/core-services.js";
import { HELP_CARD, type HelpCardEntry } from "./help-card.js";
import { helpLines } from "./help-lines.js";

/** Help: the player's features; `admin` lists the admin commands instead (`/system help admin`). */
export interface HelpInput {
  readonly admin?: boolean;
}
export const HELP_ACTION = ActionType.of<HelpInput>(
  "system:help",
  codec(z.object({ admin: z.boolean().optional() }).strict() as z.ZodType<HelpInput>),
);

const helpCommand = AgentCommand.custom<HelpInput>(["help", "帮助"], (name) =>
  literal<CommandSource>(name)
    .executes(async (context) => {
      context.getSource().action({});
      return 1;
    })
    .then(
      literal<CommandSource>("admin")
        .requires(isAdmin)
        .executes(async (context) => {
          context.getSource().action({ admin: true });
          return 1;
        }),
    ),
);

export { helpDescriptionKey } from "./help-lines.js";

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
        .command(helpCommand)
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

  override async run(input: HelpInput, context: ExecutionContext): Promise<AgentResult> {
    const lines = await helpLines({ ...this.options, context, admin: input.admin === true });
    return AgentResult.success(
      undefined,
      present(
        HELP_CARD.card({
          entries: lines.entries,
          ...(input.admin === true ? { admin: true } : {}),
          ...(lines.hasAdmin ? { hasAdmin: true } : {}),
        }),
      ),
    );
  }

  /** The lines of one player's help (their features, or with `admin` their admin commands). */
  async entries(
    context: Pick<ExecutionContext, "playerId" | "features" | "locale">,
    admin = false,
  ): Promise<HelpCardEntry[]> {
    return (await helpLines({ ...this.options, context, admin })).entries;
  }
}
