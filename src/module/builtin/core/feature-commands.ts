import { argument, greedyString, literal } from "@jsprismarine/brigadier";
import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { CommandSource } from "../../../agent/command/command-source.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { type Text, translatable } from "../../../agent/text.js";
import { codec } from "../../../util/codec.js";
import { CoreCommandModule } from "./core-module.js";
import { type CoreServices, isAdmin } from "./core-services.js";

const FEATURE = ActionType.of(
  "system:admin_feature",
  codec(
    z.object({
      op: z.enum(["list", "enable", "disable"]),
      feature: z.string().min(1).max(128).optional(),
    }),
  ),
);
type FeatureInput = z.infer<typeof FEATURE.codec.schema>;

const featureCommand = AgentCommand.custom<FeatureInput>(["feature", "features"], (name) => {
  const node = literal<CommandSource>(name)
    .requires(isAdmin)
    .executes(async (context) => {
      context.getSource().action({ op: "list" });
      return 1;
    })
    .then(
      literal<CommandSource>("list").executes(async (context) => {
        context.getSource().action({ op: "list" });
        return 1;
      }),
    );
  for (const op of ["enable", "disable"] as const)
    node.then(
      literal<CommandSource>(op).then(
        // greedy: ids are namespaced (`system:search`) and tags start with `#`, which `word()` cannot read
        argument<CommandSource, string>("feature", greedyString()).executes(async (context) => {
          context.getSource().action({ op, feature: String(context.getArgument("feature")).trim() });
          return 1;
        }),
      ),
    );
  return node;
});

/**
 * `/system feature [list]`, `/system feature enable|disable <id|#tag>` (admin): features on or off for the whole
 * server at runtime. Off means gone from every player's commands, help, completions, routing and tools at
 * once, running requests ended, stored data kept; on restores it.
 */
export class FeatureModule extends CoreCommandModule<FeatureInput> {
  constructor(services: CoreServices) {
    super(
      FEATURE,
      "List features, or switch one on or off for the whole server (admin).",
      featureCommand,
      services,
      true,
    );
  }

  protected async apply(input: FeatureInput): Promise<Text> {
    if (input.op === "list" || input.feature === undefined) return this.#list();
    const enable = input.op === "enable";
    const result = await this.services.switchFeature(input.feature, enable);
    if (result.kind === "unknown") throw new AgentException(AgentFailure.NOT_FOUND.with(input.feature));
    if (result.kind === "infrastructure")
      throw new AgentException({
        code: AgentFailure.PERMISSION_DENIED.code,
        key: "system.admin.feature_infrastructure",
        args: [result.id],
      });
    if (result.changed.length === 0)
      return translatable(
        enable ? "system.admin.feature_already_on" : "system.admin.feature_already_off",
        input.feature,
      );
    if (enable) return translatable("system.admin.feature_enabled", result.changed.join(", "));
    return result.ended === 0
      ? translatable("system.admin.feature_disabled", result.changed.join(", "))
      : translatable("system.admin.feature_disabled_ended", result.changed.join(", "), result.ended);
  }

  #list(): Text {
    const rows: Text[] = this.services
      .featureStatuses()
      .map((status) =>
        translatable(
          "system.admin.feature_line",
          status.id,
          translatable(
            status.infrastructure
              ? "system.admin.feature_state_infrastructure"
              : status.enabled
                ? "system.admin.feature_state_on"
                : "system.admin.feature_state_off",
          ),
          translatable(
            status.enabledByDefault ? "system.admin.feature_everyone" : "system.admin.feature_granted_only",
          ),
          status.type,
        ),
      );
    const joined = rows.reduceRight<Text>((rest, row) => translatable("system.text.concat", row, rest), {
      kind: "literal",
      text: "",
    });
    return translatable("system.admin.features", joined);
  }
}

export const FEATURE_ACTION = FEATURE;
