import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { CardBuilder } from "../../../agent/card/card-builder.js";
import { joinLines, present, registerCardType } from "../../../agent/card/card-text.js";
import { CardType } from "../../../agent/card/card-type.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { SIMPLE_POLICY } from "../../../agent/execution/policy-defaults.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { hadNoEffect, wasDeferred } from "../../../agent/storage/no-effect.js";
import { literal, translatable } from "../../../agent/text.js";
import type { Tool } from "../../../agent/tool/tool.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { GameEventTypes } from "../../../game/game-events.js";
import { GameFailures } from "../../../game/tools/game-failures.js";
import {
  GIVE_ITEMS,
  type GiveInput,
  giveItemsTool,
  ITEM_STACK,
  type ItemStack,
} from "../../../game/tools/give-items-tool.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import { defineFeature } from "../../define-feature.js";
import { itemNamer } from "../check-in/check-in-feature.js";
import { ANNOUNCE_CARD, AnnounceModule } from "./announce-module.js";

interface WelcomeInput {
  readonly items: readonly ItemStack[];
}
const WELCOME_ACTION = ActionType.of<WelcomeInput>(
  "system:welcome",
  codec(
    z
      .object({ items: z.array(ITEM_STACK.schema).max(16).default([]) })
      .strict() as unknown as z.ZodType<WelcomeInput>,
  ),
);

const cardSchema = z.object({
  name: z.string(),
  items: z.array(z.object({ name: z.string(), count: z.number().int() })).max(16),
  /**
   * given: the kit is in the inventory; none: no kit; failed: it did not fit (nothing was given); not_given: it
   * could not be given for another reason (the player left, an item the server lacks); unavailable: this server
   * gives no items yet (the gateway without RCON), so it was not tried.
   */
  kit: z.enum(["given", "none", "failed", "not_given", "unavailable"]),
});

/** `system:welcome`: a greeting, the starter kit it gave, narrated. */
export const WELCOME_CARD = CardType.of<z.infer<typeof cardSchema>>(
  "system:welcome",
  codec(cardSchema),
  (data) =>
    CardBuilder.of(
      `system.welcome.${data.kit}`,
      literal(data.name),
      joinLines(
        data.items.map((item) =>
          translatable("system.welcome.item", literal(item.name), literal(String(item.count))),
        ),
      ),
    ).withSpeech(translatable("system.welcome.speech", literal(data.name))),
);

/**
 * `system:welcome`: run by an advancement rule (by default on a player's first join): greets the player and gives
 * the rule's starter kit in one durable give step (DONE only once saved; never given twice). Events only.
 */
class WelcomeModule extends AbstractAgentModule<WelcomeInput> {
  constructor(
    private readonly itemName: (item: string, locale: string) => string,
    private readonly playerName: (playerId: string) => string | undefined,
    giveItems: Tool<GiveInput, { given: ItemStack[] }>,
    private readonly givesItems: () => boolean,
  ) {
    super({
      action: WELCOME_ACTION,
      writes: "state",
      description: "Welcome a player and give a starter kit (advancement rules).",
      tools: [giveItems],
      interactive: false,
      event: true,
      eventTypes: [GameEventTypes.FIRST_JOIN, GameEventTypes.JOIN],
      policy: { ...SIMPLE_POLICY, modelCalls: 0, toolCalls: 2, steps: 4, writeSteps: 1 },
    });
  }

  override async run(input: WelcomeInput, context: ExecutionContext): Promise<AgentResult> {
    const items = input.items.map((stack) => ({
      name: this.itemName(stack.item, context.locale),
      count: stack.count,
    }));
    const name = this.playerName(context.playerId) ?? "";
    const card = (kit: "given" | "none" | "failed" | "not_given" | "unavailable") =>
      present(WELCOME_CARD.card({ name, items, kit }));
    if (input.items.length === 0) return AgentResult.success(undefined, card("none"));
    if (!this.givesItems())
      return AgentResult.error(GameFailures.noWorldEffects()).withPresentation(card("unavailable"));
    try {
      await context.tool(GIVE_ITEMS, "kit", { items: [...input.items] });
    } catch (error) {
      // the world cannot take the kit now (nothing given): the task waits and tries again
      if (wasDeferred(error)) throw error;
      if (hadNoEffect(error)) {
        const failure = AgentException.failure(error);
        const fits = failure.code !== GameFailures.giveFailed("", 0).code;
        return AgentResult.error(failure).withPresentation(card(fits ? "not_given" : "failed"));
      }
      throw error;
    }
    return AgentResult.success(undefined, card("given"));
  }
}

/** `system:welcome`: the welcome workflow that advancement rules start (see `config/system/advancements.json`). */
export const WELCOME_FEATURE = defineFeature<Record<string, never>>({
  id: Identifier.parse("system:welcome"),
  config: codec(z.object({}).strict() as z.ZodType<Record<string, never>>),
  create: ({ id }) => ({
    install(context) {
      const services = context.services;
      const bridge = services.get(GameContextTypes.GAME_BRIDGE);
      registerCardType(services.get(GameContextTypes.CARDS), WELCOME_CARD);
      registerCardType(services.get(GameContextTypes.CARDS), ANNOUNCE_CARD);
      context.engine.registerModule(new AnnounceModule(id));
      context.engine.registerModule(
        new WelcomeModule(
          itemNamer(services.find(GameContextTypes.ITEM_CATALOG)),
          (playerId) => bridge.playerName(playerId),
          giveItemsTool({ bridge, owner: id }),
          () => bridge.givesItems(),
        ),
      );
    },
    storages: [],
  }),
});
