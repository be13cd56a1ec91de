import { argument, literal, word } from "@jsprismarine/brigadier";
import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { joinLines } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { CommandSource } from "../../../agent/command/command-source.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { literal as literalText, type Text, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";
import { adminNode, CoreCommandModule } from "./core-module.js";
import type { CoreServices } from "./core-services.js";

const RESTORE = ActionType.of(
  "system:admin_restore",
  codec(z.object({ player: z.string().min(1).max(32).optional(), dismiss: z.boolean().optional() })),
);
type RestoreInput = z.infer<typeof RESTORE.codec.schema>;

/**
 * `/system restore` (admin): lists the players whose file was found damaged, with the copy kept of each;
 * `/system restore <player>` puts the newest kept copy back once the admin mended it (the player offline; the
 * file it replaces is kept aside); `/system restore <player> dismiss` closes the notice, keeping the copies.
 */
export class RestoreModule extends CoreCommandModule<RestoreInput> {
  constructor(services: CoreServices) {
    const command = AgentCommand.custom<RestoreInput>(["restore"], (name) =>
      adminNode(name)
        .executes(async (context) => {
          context.getSource().action({});
          return 1;
        })
        .then(
          argument<CommandSource, string>("player", word())
            .executes(async (context) => {
              context.getSource().action({ player: String(context.getArgument("player")) });
              return 1;
            })
            .then(
              literal<CommandSource>("dismiss").executes(async (context) => {
                context.getSource().action({ player: String(context.getArgument("player")), dismiss: true });
                return 1;
              }),
            ),
        ),
    );
    super(RESTORE, "Restore a player's mended file after damage (admin).", command, services, true);
  }

  protected async apply(input: RestoreInput): Promise<Text> {
    if (input.player === undefined) {
      const lines = this.services.damagedFiles();
      if (lines.length === 0) return translatable("system.admin.restore.list_empty");
      return joinLines([
        translatable("system.admin.restore.list"),
        ...lines.map((line) =>
          translatable(
            "system.admin.restore.line",
            literalText(line.player),
            literalText(line.kept),
            literalText(line.reason),
          ),
        ),
      ]);
    }
    const player = this.player(input.player);
    if (input.dismiss === true) {
      if (!(await this.services.dismissDamaged(player)))
        throw new AgentException(restoreFailure("system.admin.restore.none", player.name));
      return translatable("system.admin.restore.dismissed", player.name);
    }
    const outcome = await this.services.restoreFile(player);
    if (outcome.kind === "none")
      throw new AgentException(restoreFailure("system.admin.restore.none", player.name));
    if (outcome.kind === "online")
      throw new AgentException(restoreFailure("system.admin.restore.online", player.name));
    if (outcome.kind === "damaged")
      throw new AgentException(restoreFailure("system.admin.restore.damaged", outcome.copy, outcome.reason));
    return outcome.replaced === undefined
      ? translatable("system.admin.restore.done", player.name, outcome.copy)
      : translatable("system.admin.restore.done_replaced", player.name, outcome.copy, outcome.replaced);
  }
}

/** A refused restore: a translated reason, nothing changed (NOT_FOUND when nothing is kept, else INPUT_INVALID). */
const restoreFailure = (key: string, ...args: string[]) => ({
  code: key === "system.admin.restore.none" ? AgentFailure.NOT_FOUND.code : AgentFailure.INPUT_INVALID.code,
  key,
  args,
});
