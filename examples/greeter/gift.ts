// The write half: a player storage, a write tool (a durable journal step) and the workflow that uses both.
import {
  AbstractAgentModule,
  ActionType,
  AgentCommand,
  AgentException,
  AgentFailure,
  AgentResult,
  type AgentStore,
  codec,
  DataStorage,
  type ExecutionContext,
  hadNoEffect,
  Identifier,
  ModuleData,
  ModuleRouting,
  ModuleStorage,
  NoEffectException,
  SIMPLE_POLICY,
  Tool,
  ToolType,
  translatable,
} from "system/agent";
import { type GameBridge, GameFailures, ITEM_STACK, type ItemStack } from "system/game";
import { z } from "zod";

const giftSchema = z.object({ claimed: z.boolean() });
type GiftData = z.infer<typeof giftSchema>;

/** Whether a player has had the gift. Mutators mark the storage dirty only on a real change. */
export class GiftStorage extends DataStorage<GiftData> {
  #claimed: boolean;

  constructor(data?: GiftData) {
    super();
    this.#claimed = data?.claimed ?? false;
  }

  get claimed(): boolean {
    return this.#claimed;
  }

  /** Claims the gift; false when it was claimed already. */
  claim(): boolean {
    if (this.#claimed) return false;
    this.#claimed = true;
    this.markDirty();
    return true;
  }

  /** Gives the claim back (the give changed nothing, so the player may try again). */
  release(): void {
    if (!this.#claimed) return;
    this.#claimed = false;
    this.markDirty();
  }

  toData(): GiftData {
    return { claimed: this.#claimed };
  }
}

/** The storage of one feature instance: its id owns the data in the player file. */
export const giftStorage = (owner: Identifier) =>
  ModuleStorage.of({
    owner,
    type: "gift",
    codecId: Identifier.parse("greeter:gift_v1"),
    codec: codec(giftSchema),
    factory: (data) => new GiftStorage(data),
  });

/** `greeter:give_gift`: puts the gift into the asking player's inventory. A write tool (the default). */
export const GIVE_GIFT = ToolType.of(
  "greeter:give_gift",
  codec(z.object({ items: z.array(ITEM_STACK.schema).min(1).max(4) })),
  codec(z.object({ given: z.number().int() })),
);

export const giveGiftTool = (bridge: GameBridge) =>
  Tool.of(GIVE_GIFT, async (input, scope) => {
    const outcome = await bridge.giveItems(scope.playerId, input.items).catch((error: unknown) => {
      // the game may or may not have given the items: never run this step again by itself
      throw new AgentException(AgentFailure.EFFECT_UNKNOWN.with(GIVE_GIFT.id.toString(), scope.stepId), {
        cause: error,
      });
    });
    if (outcome.given) return { given: input.items.reduce((sum, stack) => sum + stack.count, 0) };
    // a refusal changed nothing: a NoEffectException lets the same step run again later
    if (outcome.refusal === "offline") throw new NoEffectException(GameFailures.playerOffline());
    const stack = outcome.item ?? input.items[0];
    throw new NoEffectException(GameFailures.giveFailed(stack?.item ?? "", stack?.count ?? 0));
  });

const giftInput = z.object({}).strict();
export type GiftInput = z.infer<typeof giftInput>;
export const GIFT = ActionType.of("greeter:gift", codec(giftInput));

export interface GiftModuleOptions {
  readonly tool: Tool<{ items: ItemStack[] }, { given: number }>;
  readonly store: AgentStore;
  readonly storage: ModuleStorage<GiftData, GiftStorage>;
  readonly items: readonly ItemStack[];
}

/**
 * `greeter:gift`: `/system gift` gives the configured items once per player. The claim is stored first, then
 * the give runs as the durable step `give` (a journal receipt: a DONE step is replayed, never given again); a
 * give that changed nothing releases the claim. Commands only: plain text never reaches a write workflow.
 */
export class GiftModule extends AbstractAgentModule<GiftInput> {
  constructor(private readonly options: GiftModuleOptions) {
    super({
      action: GIFT,
      description: "Give the player the server's welcome gift, once.",
      tools: [options.tool],
      policy: { ...SIMPLE_POLICY, modelCalls: 0, writeSteps: 1 },
      routing: ModuleRouting.structuredOnly<GiftInput>().command(
        AgentCommand.literal<GiftInput>({}, "gift", "见面礼"),
      ),
    });
  }

  override async run(_input: GiftInput, context: ExecutionContext): Promise<AgentResult> {
    const { store, storage, items } = this.options;
    const first = await store.transaction(context.playerId, (data) => ModuleData.get(data, storage).claim());
    if (!first) return AgentResult.success(translatable("greeter.gift.already"));
    try {
      const { given } = await context.tool(GIVE_GIFT, "give", { items: [...items] });
      return AgentResult.success(translatable("greeter.gift.given", given));
    } catch (error) {
      if (hadNoEffect(error))
        await store.transaction(context.playerId, (data) => ModuleData.get(data, storage).release());
      throw error;
    }
  }
}
