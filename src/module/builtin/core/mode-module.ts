import { argument, greedyString, literal, word } from "@jsprismarine/brigadier";
import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { joinLines } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { CommandSource } from "../../../agent/command/command-source.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { customFailure } from "../../../agent/failure.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { type Text, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";
import { EXECUTION_MODES, type ExecutionMode, isExecutionMode } from "../../permissions/execution-mode.js";
import { unknownPlayer } from "./core-module.js";
import { ADMIN_LEVEL, type CoreServices, isAdmin } from "./core-services.js";
import { modeText } from "./mode-show-module.js";

/** The workflow `full` sends plain text to; without it `full` cannot be chosen. */
export const FREE_CHAT_WORKFLOW = "system:free_chat";

const MODE = z.enum(EXECUTION_MODES);

/**
 * `mode`: show mine; `mode <m>`: choose mine; admin: `mode <m> <player>`, `mode default <m>`, `mode allow <m…>`.
 */
export type ModeInput =
  | { readonly op: "show" }
  | { readonly op: "choose"; readonly mode: ExecutionMode }
  | { readonly op: "player"; readonly mode: ExecutionMode; readonly player: string }
  | { readonly op: "default"; readonly mode: ExecutionMode }
  | { readonly op: "allow"; readonly modes: string };

export const MODE_ACTION = ActionType.of(
  "system:mode",
  codec<ModeInput>(
    z.union([
      z.object({ op: z.literal("show") }).strict(),
      z.object({ op: z.literal("choose"), mode: MODE }).strict(),
      z.object({ op: z.literal("player"), mode: MODE, player: z.string().min(1).max(32) }).strict(),
      z.object({ op: z.literal("default"), mode: MODE }).strict(),
      z.object({ op: z.literal("allow"), modes: z.string().min(1).max(64) }).strict(),
    ]) as z.ZodType<ModeInput>,
  ),
);

const command = AgentCommand.custom<ModeInput>(["mode", "模式"], (name) => {
  const node = literal<CommandSource>(name).executes(async (context) => {
    context.getSource().action({ op: "show" });
    return 1;
  });
  for (const mode of EXECUTION_MODES)
    node.then(
      literal<CommandSource>(mode)
        .executes(async (context) => {
          context.getSource().action({ op: "choose", mode });
          return 1;
        })
        .then(
          argument<CommandSource, string>("player", word())
            .requires(isAdmin)
            .executes(async (context) => {
              context
                .getSource()
                .action({ op: "player", mode, player: String(context.getArgument("player")) });
              return 1;
            }),
        ),
    );
  const defaults = literal<CommandSource>("default").requires(isAdmin);
  for (const mode of EXECUTION_MODES)
    defaults.then(
      literal<CommandSource>(mode).executes(async (context) => {
        context.getSource().action({ op: "default", mode });
        return 1;
      }),
    );
  return node.then(defaults).then(
    literal<CommandSource>("allow")
      .requires(isAdmin)
      .then(
        argument<CommandSource, string>("modes", greedyString()).executes(async (context) => {
          context.getSource().action({ op: "allow", modes: String(context.getArgument("modes")) });
          return 1;
        }),
      ),
  );
});

const refused = (key: string, ...args: string[]): AgentException =>
  new AgentException(customFailure("MODE_REFUSED", key, ...args));

/**
 * `/system mode` (`模式`): a player shows and chooses their own execution mode among those the server allows
 * (`full` only when free chat is installed and enabled for them); an admin sets one player's mode (over their choice), the server's
 * default, and the allowed set. Structured only: a command or a button, never routed (plain language reads the
 * mode through `system:mode_show`).
 */
export class ModeModule extends AbstractAgentModule<ModeInput> {
  constructor(private readonly services: CoreServices) {
    super({
      action: MODE_ACTION,
      writes: "state",
      description:
        "Show or choose your execution mode; admins set defaults, allowed modes and players' modes.",
      routing: ModuleRouting.structuredOnly<ModeInput>().command(command),
    });
  }

  async run(input: ModeInput, context: ExecutionContext): Promise<AgentResult> {
    if (input.op !== "show" && input.op !== "choose" && context.permissionLevel < ADMIN_LEVEL)
      throw new AgentException(AgentFailure.PERMISSION_DENIED);
    return AgentResult.success(await this.#apply(input, context.playerId));
  }

  async #apply(input: ModeInput, playerId: string): Promise<Text> {
    const { services } = this;
    switch (input.op) {
      case "show":
        return modeText(services, playerId);
      case "choose": {
        const current = services.modeOf(playerId);
        if (current.source === "admin" && current.mode !== input.mode)
          throw refused("system.mode.admin_set", current.mode);
        if (!current.allowed.includes(input.mode))
          throw refused("system.mode.not_allowed", input.mode, current.allowed.join(", "));
        this.#checkAvailable(input.mode, playerId);
        await services.chooseMode(playerId, input.mode);
        return translatable("system.mode.chosen", input.mode);
      }
      case "player": {
        const player = services.resolvePlayer(input.player);
        if (player === undefined) throw new AgentException(unknownPlayer(input.player));
        await services.setMode(input.mode, player);
        return this.#noted(
          translatable("system.admin.mode_player", input.mode, player.name),
          input.mode,
          player.uuid,
        );
      }
      case "default":
        await services.setMode(input.mode, undefined);
        return this.#noted(translatable("system.admin.mode_server", input.mode), input.mode, playerId);
      case "allow": {
        const words = input.modes.split(/[\s,]+/u).filter((word) => word.length > 0);
        const unknown = words.find((word) => !isExecutionMode(word));
        if (unknown !== undefined || words.length === 0)
          throw refused("system.mode.unknown", unknown ?? "", EXECUTION_MODES.join(", "));
        const modes = EXECUTION_MODES.filter((mode) => words.includes(mode));
        await services.allowModes(modes);
        return translatable("system.admin.mode_allowed", modes.join(", "));
      }
    }
  }

  /** An admin's `full` while the server has no model: set as asked, with a word that it acts as `routing` for now. */
  #noted(done: Text, mode: ExecutionMode, playerId: string): Text {
    if (
      mode !== "full" ||
      this.services.fullModeRefusal(playerId)?.code !== AgentFailure.MODEL_UNAVAILABLE.code
    )
      return done;
    return joinLines([done, translatable("system.mode.full_note")]);
  }

  /**
   * `full` sends plain text to free chat, a model loop: without free chat, or without a model the player may call
   * (none configured, or their AI off), the choice would silently mean `routing`, so it is refused and the mode kept.
   */
  #checkAvailable(mode: ExecutionMode, playerId: string): void {
    if (mode !== "full") return;
    if (!this.services.canUseWorkflow(playerId, FREE_CHAT_WORKFLOW))
      throw refused("system.mode.full_unavailable");
    const refusal = this.services.fullModeRefusal(playerId);
    if (refusal === undefined) return;
    const kept = this.services.modeOf(playerId).mode;
    throw refused(
      refusal.code === AgentFailure.AI_DISABLED.code
        ? "system.mode.full_ai_off"
        : "system.mode.full_needs_model",
      kept,
    );
  }
}
