import { argument, greedyString, integer, literal } from "@jsprismarine/brigadier";
import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import { withUsage } from "../../../agent/command/command-registry.js";
import type { CommandSource } from "../../../agent/command/command-source.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { literal as literalText, translatable } from "../../../agent/text.js";
import type { KnowledgeAdmin } from "../../../data/knowledge/knowledge-admin.js";
import { codec } from "../../../util/codec.js";
import { ADMIN_LEVEL, isAdmin } from "../core/core-services.js";

/** `add <title> | <body>` or `remove <id>`: one action, so the one `knowledge` command node carries both. */
export type KnowledgeAdminInput = { op: "add"; title: string; body: string } | { op: "remove"; id: number };

export const KNOWLEDGE_ADMIN_ACTION = ActionType.of(
  "system:knowledge_admin",
  codec<KnowledgeAdminInput>(
    z.union([
      z.object({
        op: z.literal("add"),
        title: z.string().min(1).max(200),
        body: z.string().min(1).max(16_000),
      }),
      z.object({ op: z.literal("remove"), id: z.number().int().positive() }),
    ]) as z.ZodType<KnowledgeAdminInput>,
  ),
);

/** Splits `title | body`; undefined without a separator (the command then reports its usage). */
const parseEntry = (text: string): KnowledgeAdminInput | undefined => {
  const separator = text.indexOf("|");
  if (separator < 0) return undefined;
  const title = text.slice(0, separator).trim();
  const body = text.slice(separator + 1).trim();
  return title.length === 0 || body.length === 0 ? undefined : { op: "add", title, body };
};

const command = AgentCommand.custom<KnowledgeAdminInput>(["knowledge", "知识"], (name) =>
  literal<CommandSource>(name)
    .requires(isAdmin)
    .then(
      literal<CommandSource>("add").then(
        argument<CommandSource, string>("entry", withUsage(greedyString(), "<title> | <body>")).executes(
          async (context) => {
            context.getSource().action(parseEntry(String(context.getArgument("entry"))));
            return 1;
          },
        ),
      ),
    )
    .then(
      literal<CommandSource>("remove").then(
        argument<CommandSource, number>("id", integer(1)).executes(async (context) => {
          context.getSource().action({ op: "remove", id: Number(context.getArgument("id")) });
          return 1;
        }),
      ),
    ),
);

/** Admin commands that add shared knowledge entries and remove entries, in game. */
export class KnowledgeAdminModule extends AbstractAgentModule<KnowledgeAdminInput> {
  constructor(private readonly admin: KnowledgeAdmin) {
    super({
      action: KNOWLEDGE_ADMIN_ACTION,
      writes: "state",
      description: "Add or remove knowledge entries (admin).",
      routing: ModuleRouting.structuredOnly<KnowledgeAdminInput>().command(command),
    });
  }

  async run(input: KnowledgeAdminInput, context: ExecutionContext): Promise<AgentResult> {
    if (context.permissionLevel < ADMIN_LEVEL) throw new AgentException(AgentFailure.PERMISSION_DENIED);
    if (input.op === "add") {
      const added = await this.admin.add({ title: input.title, body: input.body });
      if (!added.success) throw new AgentException(AgentFailure.INPUT_INVALID.with(added.error));
      return AgentResult.success(
        translatable("system.knowledge.added", added.value.id, literalText(added.value.title)),
      );
    }
    const removed = await this.admin.remove(input.id);
    if (!removed.success) throw new AgentException(AgentFailure.INPUT_INVALID.with(removed.error));
    if (!removed.value) throw new AgentException(AgentFailure.NOT_FOUND.with(String(input.id)));
    return AgentResult.success(translatable("system.knowledge.removed", input.id));
  }
}
