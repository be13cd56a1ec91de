import { z } from "zod";
import { AgentResult } from "../../../agent/agent-result.js";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { present, registerCardType } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import type { AnyModuleStorage } from "../../../agent/storage/module-storage.js";
import { literal, translatable } from "../../../agent/text.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import { PANEL_BINDINGS, type PanelBindings } from "./panel-bindings.js";

type Empty = Record<string, never>;
const EMPTY = codec(z.object({}).strict() as unknown as z.ZodType<Empty>);

const offerSchema = z.object({
  code: z.string().max(16),
  url: z.string().max(512),
  minutes: z.number().int(),
});

/** `/system bind`: the code, its lifetime and the panel's address (a link the chat host makes clickable). */
export const BIND_CARD = CardType.of<z.infer<typeof offerSchema>>(
  "system:panel_bind",
  codec(offerSchema),
  (data) =>
    CardBuilder.of("system.panel.bind", literal(data.code), literal(String(data.minutes)), literal(data.url)),
);

class BindModule extends AbstractAgentModule<Empty> {
  constructor(private readonly bindings: PanelBindings) {
    super({
      action: ActionType.of("system:panel_bind", EMPTY),
      writes: "state",
      description: "Show a one-time code that binds a web panel to you.",
      routing: ModuleRouting.structuredOnly<Empty>().command(AgentCommand.literal<Empty>({}, "bind", "绑定")),
    });
  }
  async run(_input: Empty, context: ExecutionContext): Promise<AgentResult> {
    return AgentResult.success(undefined, present(BIND_CARD.card(this.bindings.offer(context.playerId))));
  }
}

class UnbindModule extends AbstractAgentModule<Empty> {
  constructor(private readonly bindings: PanelBindings) {
    super({
      action: ActionType.of("system:panel_unbind", EMPTY),
      writes: "state",
      description: "Unbind every web panel bound to you.",
      routing: ModuleRouting.structuredOnly<Empty>().command(
        AgentCommand.literal<Empty>({}, "unbind", "解绑"),
      ),
    });
  }
  async run(_input: Empty, context: ExecutionContext): Promise<AgentResult> {
    const ended = await this.bindings.unbind(context.playerId);
    return AgentResult.success(translatable("system.panel.unbound", String(ended)));
  }
}

/**
 * The web panel's commands (`system:web_panel`): `/system bind` and `/system unbind`. They exist only in a host
 * that serves the panel and provides its bindings; elsewhere (an embedding without the panel) the feature
 * registers nothing.
 */
export class WebPanelFeature implements ServerModule {
  readonly type = WEB_PANEL_FEATURE_ID;
  readonly enabledByDefault = true;
  readonly toolModule = false;

  constructor(readonly id: Identifier) {}

  install(context: ServerModuleContext): void {
    const bindings = context.services.find(PANEL_BINDINGS);
    if (bindings === undefined) return;
    registerCardType(context.services.get(GameContextTypes.CARDS), BIND_CARD);
    context.engine.registerModule(new BindModule(bindings));
    context.engine.registerModule(new UnbindModule(bindings));
  }

  storages(): readonly AnyModuleStorage[] {
    return [];
  }
}

export const WEB_PANEL_FEATURE_ID = Identifier.parse("system:web_panel");

export const WEB_PANEL_FEATURE: ServerModuleType<unknown> = {
  id: WEB_PANEL_FEATURE_ID,
  config: codec(z.object({}).passthrough()),
  create: (id) => new WebPanelFeature(id),
};
