import { argument, greedyString, literal, word } from "@jsprismarine/brigadier";
import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { CommandSource } from "../../../agent/command/command-source.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import type { Failure } from "../../../agent/failure.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import type { ModuleWrites } from "../../../agent/module/module-writes.js";
import { type Text, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";
import { ADMIN_LEVEL, type CoreServices, isAdmin, type KnownPlayer } from "./core-services.js";
import { REVOKE_ACTION_ID, REVOKE_CARD } from "./revoke-card.js";

/** NOT_FOUND for a player name System has never seen join. */
export const unknownPlayer = (name: string): Failure => ({
  code: AgentFailure.NOT_FOUND.code,
  key: "system.admin.unknown_player",
  args: [name],
});

/** A structured-only core command: reachable by its command or a button, never by semantic or model routing. */
abstract class CoreCommandModule<I> extends AbstractAgentModule<I> {
  constructor(
    action: ActionType<I>,
    description: string,
    command: AgentCommand<I>,
    protected readonly services: CoreServices,
    private readonly admin: boolean,
    // a core command changes a grant, a file, a mode or a setting unless it says it only reads; a repeat runs again
    writes: ModuleWrites = "state",
  ) {
    super({ action, description, writes, routing: ModuleRouting.structuredOnly<I>().command(command) });
  }

  /** Admin modules check the level again at run time: a button or invoke request has no command node. */
  protected async guard(context: ExecutionContext): Promise<void> {
    if (this.admin && context.permissionLevel < ADMIN_LEVEL)
      throw new AgentException(AgentFailure.PERMISSION_DENIED);
  }

  /** The named player; a name that never joined is NOT_FOUND saying so (not a generic "nothing found"). */
  protected player(name: string): KnownPlayer {
    const player = this.services.resolvePlayer(name);
    if (player === undefined) throw new AgentException(unknownPlayer(name));
    return player;
  }

  async run(input: I, context: ExecutionContext): Promise<AgentResult> {
    await this.guard(context);
    return AgentResult.success(await this.apply(input, context));
  }

  protected abstract apply(input: I, context: ExecutionContext): Promise<Text>;
}

export const adminNode = (alias: string) => literal<CommandSource>(alias).requires(isAdmin);

// grant / revoke ------------------------------------------------------------------------------------------

const ACCESS = ActionType.of(
  "system:admin_access",
  codec(
    z.object({
      grant: z.boolean(),
      player: z.string().min(1).max(32),
      feature: z.string().max(128).optional(),
      /** A revoke of the whole access runs only once confirmed; unconfirmed it shows what it would delete. */
      confirm: z.boolean().optional(),
    }),
  ),
);
type AccessInput = z.infer<typeof ACCESS.codec.schema>;

const accessCommand = (grant: boolean, alias: string): AgentCommand<AccessInput> =>
  AgentCommand.custom<AccessInput>([alias], (name) => {
    const player = argument<CommandSource, string>("player", word()).executes(async (context) => {
      context.getSource().action({ grant, player: String(context.getArgument("player")) });
      return 1;
    });
    // `revoke <player> confirm`: a literal is tried before the feature argument
    if (!grant)
      player.then(
        literal<CommandSource>("confirm").executes(async (context) => {
          context.getSource().action({ grant, player: String(context.getArgument("player")), confirm: true });
          return 1;
        }),
      );
    return adminNode(name).then(
      player.then(
        // greedy: feature ids are namespaced (`system:search`), which `word()` cannot read
        argument<CommandSource, string>("feature", greedyString()).executes(async (context) => {
          context.getSource().action({
            grant,
            player: String(context.getArgument("player")),
            feature: String(context.getArgument("feature")).trim(),
          });
          return 1;
        }),
      ),
    );
  });

class AccessModule extends CoreCommandModule<AccessInput> {
  constructor(services: CoreServices, grant: boolean) {
    super(
      grant ? ACCESS : REVOKE_ACCESS,
      grant
        ? "Grant AI access or one feature to a player (admin)."
        : "Revoke AI access or one feature (admin).",
      accessCommand(grant, grant ? "grant" : "revoke") as AgentCommand<AccessInput>,
      services,
      true,
    );
  }

  /**
   * Revoking a player's whole System (not one feature) deletes their player file and caches: unconfirmed, it
   * changes nothing and answers with the card listing what would be deleted.
   */
  override async run(input: AccessInput, context: ExecutionContext): Promise<AgentResult> {
    await this.guard(context);
    if (this.action === ACCESS || input.feature !== undefined || input.confirm === true)
      return AgentResult.success(await this.apply(input, context));
    const preview = await this.services.revokePreview(this.player(input.player));
    return AgentResult.success(undefined, present(REVOKE_CARD.card(preview)));
  }

  protected async apply(input: AccessInput, context: ExecutionContext): Promise<Text> {
    const player = this.player(input.player);
    const grant = this.action === ACCESS;
    if (input.feature !== undefined) {
      const known = await this.services.setAccess(player, { feature: input.feature, enabled: grant });
      if (!known) throw new AgentException(AgentFailure.NOT_FOUND.with(input.feature));
      return translatable(
        grant ? "system.admin.feature_granted" : "system.admin.feature_revoked",
        input.feature,
        player.name,
      );
    }
    // Read before AI goes off: turning it off may already stop their request.
    const running = this.services.running(player.uuid);
    await this.services.setAccess(player, { ai: grant });
    if (grant) return translatable("system.admin.granted", player.name);
    const outcome = await this.services.revoke(player, context.playerId);
    if (outcome.kind === "after_reply") return translatable("system.admin.revoked_self", player.name);
    return translatable(running ? "system.admin.revoked_stopped" : "system.admin.revoked", player.name);
  }
}

const REVOKE_ACCESS = ActionType.of(REVOKE_ACTION_ID, ACCESS.codec);

// reset -------------------------------------------------------------------------------------------------------

const PLAYER_INPUT = codec(z.object({ player: z.string().min(1).max(32) }));
const RESET = ActionType.of("system:admin_reset", PLAYER_INPUT);

class ResetModule extends CoreCommandModule<{ player: string }> {
  constructor(services: CoreServices) {
    const command = AgentCommand.custom<{ player: string }>(["reset"], (name) =>
      adminNode(name).then(
        argument<CommandSource, string>("player", word()).executes(async (context) => {
          context.getSource().action({ player: String(context.getArgument("player")) });
          return 1;
        }),
      ),
    );
    super(
      RESET,
      "Delete a player's System files and caches, keeping usage (admin).",
      command,
      services,
      true,
    );
  }

  protected async apply(input: { player: string }): Promise<Text> {
    const player = this.player(input.player);
    await this.services.reset(player);
    return translatable("system.admin.reset", player.name);
  }
}

// usage -------------------------------------------------------------------------------------------------------

const USAGE = ActionType.of("system:admin_usage", codec(z.object({ player: z.string().max(32).optional() })));

class UsageModule extends CoreCommandModule<{ player?: string | undefined }> {
  constructor(services: CoreServices) {
    const command = AgentCommand.custom<{ player?: string }>(["usage"], (name) =>
      adminNode(name)
        .executes(async (context) => {
          context.getSource().action({});
          return 1;
        })
        .then(
          argument<CommandSource, string>("player", word()).executes(async (context) => {
            context.getSource().action({ player: String(context.getArgument("player")) });
            return 1;
          }),
        ),
    );
    super(USAGE, "Show model calls and tokens per day (admin).", command, services, true, "none");
  }

  protected async apply(input: { player?: string | undefined }): Promise<Text> {
    const player = input.player === undefined ? undefined : this.player(input.player);
    const lines = this.services.usage(player);
    if (lines.length === 0) return translatable("system.admin.usage_empty");
    const rows: Text[] = lines.map((line) =>
      translatable(
        "system.admin.usage_line",
        line.day,
        line.player,
        line.calls === 1
          ? translatable("system.admin.usage_calls.one")
          : translatable("system.admin.usage_calls.other", line.calls),
        line.inputTokens,
        line.outputTokens,
      ),
    );
    const joined = rows.reduceRight<Text>((rest, row) => translatable("system.text.concat", row, rest), {
      kind: "literal",
      text: "",
    });
    return translatable("system.admin.usage", joined);
  }
}

// reload, mode ------------------------------------------------------------------------------------------------

const RELOAD = ActionType.of("system:admin_reload", codec(z.object({})));

class ReloadModule extends CoreCommandModule<Record<string, never>> {
  constructor(services: CoreServices) {
    super(
      RELOAD,
      "Re-read config, prompts and data packs (admin).",
      AgentCommand.custom(["reload"], (name) =>
        adminNode(name).executes(async (context) => {
          context.getSource().action({});
          return 1;
        }),
      ),
      services,
      true,
    );
  }

  protected async apply(): Promise<Text> {
    return this.services.reload();
  }
}

export { AccessModule, ReloadModule, ResetModule, UsageModule };
export const CORE_ADMIN_ACTIONS = { ACCESS, REVOKE_ACCESS, RESET, USAGE, RELOAD };
export { CoreCommandModule };
