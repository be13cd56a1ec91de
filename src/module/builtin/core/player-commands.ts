import { argument, literal, word } from "@jsprismarine/brigadier";
import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import { withUsage } from "../../../agent/command/command-registry.js";
import type { CommandSource } from "../../../agent/command/command-source.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { type Text, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";
import { CoreCommandModule } from "./core-module.js";
import type { CoreServices } from "./core-services.js";

/** A setting turned on or off; `{}` shows the three as they are. */
type SettingsInput = { key: "history" | "external" | "speech"; value: boolean } | Record<string, never>;
const SETTINGS = ActionType.of<SettingsInput>(
  "system:settings",
  codec(
    z.union([
      z.object({ key: z.enum(["history", "external", "speech"]), value: z.boolean() }).strict(),
      z.object({}).strict(),
    ]) as z.ZodType<SettingsInput>,
  ),
);

/** `/system settings`: the player's own preferences; `history|external|speech on|off` changes one. */
export class SettingsModule extends CoreCommandModule<SettingsInput> {
  constructor(services: CoreServices) {
    const command = AgentCommand.custom<SettingsInput>(["settings", "设置"], (name) => {
      const node = literal<CommandSource>(name).executes(async (context) => {
        context.getSource().action({});
        return 1;
      });
      for (const key of ["history", "external", "speech"] as const)
        node.then(
          literal<CommandSource>(key).then(
            argument<CommandSource, string>("value", withUsage(word(), "on|off")).executes(
              async (context) => {
                const value = String(context.getArgument("value")).toLowerCase();
                if (value !== "on" && value !== "off") return 0;
                context.getSource().action({ key, value: value === "on" });
                return 1;
              },
            ),
          ),
        );
      return node;
    });
    super(SETTINGS, "Turn your history, external services or speech on or off.", command, services, false);
  }

  protected async apply(input: SettingsInput, context: ExecutionContext): Promise<Text> {
    if (!("key" in input)) {
      const current = await this.services.preferences(context.playerId);
      const state = (on: boolean): Text => translatable(on ? "system.settings.on" : "system.settings.off");
      return translatable(
        "system.settings.show",
        state(current.history),
        state(current.external),
        state(current.speech),
      );
    }
    await this.services.setPreference(context.playerId, input.key, input.value);
    return translatable(`system.settings.${input.key}_${input.value ? "on" : "off"}`);
  }
}

const CLEAR = ActionType.of("system:clear", codec(z.object({})));

/** `/system clear`: forgets the player's conversation history (bumps the memory generation). */
export class ClearModule extends CoreCommandModule<Record<string, never>> {
  constructor(services: CoreServices) {
    super(
      CLEAR,
      "Clear your conversation history.",
      AgentCommand.literal({}, "clear", "清空"),
      services,
      false,
    );
  }

  protected async apply(_input: Record<string, never>, context: ExecutionContext): Promise<Text> {
    await this.services.clearHistory(context.playerId);
    return translatable("system.settings.cleared");
  }
}

export const CANCEL = ActionType.of("system:cancel", codec(z.object({})));

/**
 * `/system cancel`: cancels the player's running request. The assistant runs it beside the per-player
 * exclusivity of the interactive executor (it is the one request allowed while another runs).
 */
export class CancelModule extends CoreCommandModule<Record<string, never>> {
  constructor(services: CoreServices) {
    super(
      CANCEL,
      "Cancel your running request.",
      AgentCommand.literal({}, "cancel", "取消"),
      services,
      false,
    );
  }

  protected async apply(_input: Record<string, never>, context: ExecutionContext): Promise<Text> {
    if (!this.services.cancel(context.playerId))
      throw new AgentException(AgentFailure.NOT_FOUND.with("cancel"));
    return translatable("system.settings.cancelled");
  }
}

export const CORE_PLAYER_ACTIONS = { SETTINGS, CLEAR, CANCEL };
