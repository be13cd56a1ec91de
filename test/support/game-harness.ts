import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentLifecycles } from "../../src/agent/agent-lifecycle.js";
import type { AgentResult } from "../../src/agent/agent-result.js";
import { CardRegistry } from "../../src/agent/card/card-registry.js";
import { buildCard } from "../../src/agent/card/card-type.js";
import { AgentEngine, type ExecutionRequest } from "../../src/agent/execution/agent-engine.js";
import { BoundedPool } from "../../src/agent/execution/bounded-pool.js";
import { EventExecutor } from "../../src/agent/execution/event-executor.js";
import { EventRules } from "../../src/agent/execution/event-rules.js";
import type { AgentAction } from "../../src/agent/module/action-type.js";
import { ServiceContext } from "../../src/agent/module/context-type.js";
import { JournalStepRunner } from "../../src/agent/storage/journal-step-runner.js";
import { translatable } from "../../src/agent/text.js";
import { formatText } from "../../src/agent/text-format.js";
import { FileAgentJournal } from "../../src/data/store/file-agent-journal.js";
import { FileAgentStore } from "../../src/data/store/file-agent-store.js";
import { type GameClock, GameContextTypes } from "../../src/game/context-types.js";
import { ItemCatalog } from "../../src/game/data/item-catalog.js";
import { ItemSources } from "../../src/game/data/item-sources.js";
import { GAME_EVENT_TYPES, GAME_EVENTS, type GameEvent } from "../../src/game/game-events.js";
import { MemoryGameBridge } from "../../src/game/tools/memory-game-bridge.js";
import { FeatureSwitches } from "../../src/module/feature-switches.js";
import { ModuleManager } from "../../src/module/module-manager.js";
import type { AnyServerModuleType, SystemModuleEntry } from "../../src/module/server-module.js";
import { SystemModuleTags } from "../../src/module/system-module-tags.js";
import { Identifier } from "../../src/util/identifier.js";
import { Languages } from "../../src/util/language.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { Registry } from "../../src/util/registry.js";

/** The repository's resources folder (data packs and language files). */
export const RESOURCES = fileURLToPath(new URL("../../resources", import.meta.url));

let catalog: ItemCatalog | undefined;
let sources: ItemSources | undefined;
/** The 1.21.4 item data, loaded once per test file. */
export const itemData = (): { catalog: ItemCatalog; sources: ItemSources } => {
  catalog ??= ItemCatalog.forVersion("1.21.4");
  sources ??= new ItemSources(catalog.data, catalog);
  return { catalog, sources };
};

/** A settable clock in a fixed zone. */
export class TestClock implements GameClock {
  constructor(
    public millis: number,
    readonly timeZone = "Asia/Shanghai",
  ) {}
  now(): number {
    return this.millis;
  }
}

export interface HarnessOptions {
  readonly types: readonly AnyServerModuleType[];
  /** Data-pack entries: `{ id, server }`; the type defaults to the id. */
  readonly entries: readonly { readonly id: string; readonly type?: string; readonly server?: unknown }[];
  /** A world folder to reuse (a restart); a new temp folder otherwise. */
  readonly world?: string;
  readonly clock?: TestClock;
  readonly bridge?: MemoryGameBridge;
  /** Operator levels by player id (0 when absent). */
  readonly opLevels?: Readonly<Record<string, number>>;
  /** The host's module filter (every module available when absent). */
  readonly availability?: (playerId: string, moduleId: string) => boolean;
}

/**
 * A real assembly in miniature: AgentEngine with the file journal as step runner, FileAgentStore and
 * EventExecutor in a temp world folder, ModuleManager installing features from entries, an in-process game.
 */
export class GameHarness {
  readonly logger = new MemoryLogger();
  readonly languages = Languages.load(RESOURCES);
  /** Features an admin turned off per player. */
  readonly disabled = new Map<string, Set<string>>();
  private constructor(
    readonly world: string,
    readonly engine: AgentEngine,
    readonly journal: FileAgentJournal,
    readonly store: FileAgentStore,
    readonly events: EventExecutor,
    readonly manager: ModuleManager,
    readonly bridge: MemoryGameBridge,
    readonly clock: TestClock,
    readonly cards: CardRegistry,
    /** Game events the features reported (the shipped server matches them against advancement rules). */
    readonly gameEvents: GameEvent[],
  ) {}

  static async create(options: HarnessOptions): Promise<GameHarness> {
    const world = options.world ?? (await mkdtemp(join(tmpdir(), "system-game-")));
    const journal = await FileAgentJournal.open({ folder: join(world, "system", "journal") });
    const store = new FileAgentStore({ world });
    const engine = new AgentEngine({ steps: new JournalStepRunner(journal) });
    const bridge = options.bridge ?? new MemoryGameBridge();
    const clock = options.clock ?? new TestClock(Date.UTC(2026, 11, 2, 4, 0, 0));
    const features = new Set<string>();
    const reported: GameEvent[] = [];
    let harness: GameHarness | undefined;
    const events = new EventExecutor({
      engine,
      journal,
      pool: new BoundedPool("event", { running: 2, queued: 64 }),
      rules: () =>
        new EventRules([{ eventType: "system:deliver_reward", module: "system:check_in_delivery" }]),
      isOnline: (playerId) => bridge.isOnline(playerId),
      features: (playerId) => harness?.features(playerId) ?? features,
    });
    const services = new ServiceContext(engine, engine.modules());
    const { catalog: items, sources: itemSources } = itemData();
    const cards = new CardRegistry();
    services
      .provide(GameContextTypes.GAME_BRIDGE, bridge)
      .provide(GameContextTypes.ITEM_CATALOG, items)
      .provide(GameContextTypes.ITEM_SOURCES, itemSources)
      .provide(GameContextTypes.AGENT_STORE, store)
      .provide(GameContextTypes.EVENTS, events)
      .provide(GameContextTypes.CARDS, cards)
      .provide(GameContextTypes.LANGUAGES, Languages.load(RESOURCES))
      .provide(GameContextTypes.CLOCK, clock)
      .provide(GameContextTypes.LIFECYCLES, new AgentLifecycles())
      .provide(GAME_EVENTS, { emit: async (event: GameEvent) => void reported.push(event) })
      .provide(GameContextTypes.PERMISSION_LEVEL, (playerId: string) => options.opLevels?.[playerId] ?? 0)
      .provide(GameContextTypes.AVAILABILITY, options.availability ?? (() => true));
    const types = new Registry<AnyServerModuleType>("server_module_type");
    for (const type of options.types) types.register(type.id, type);
    const logger = new MemoryLogger();
    const manager = new ModuleManager({
      types,
      engine,
      logger,
      switches: new FeatureSwitches(undefined, logger),
      tags: SystemModuleTags.empty(),
    });
    for (const eventType of GAME_EVENT_TYPES) engine.registerEventType(eventType);
    manager.install(
      options.entries.map(
        (entry): SystemModuleEntry => ({
          id: Identifier.parse(entry.id),
          type: Identifier.parse(entry.type ?? entry.id),
          enabled: true,
          enabledByDefault: undefined,
          server: (entry.server ?? {}) as SystemModuleEntry["server"],
          client: {},
          source: "test",
        }),
      ),
      services,
    );
    for (const installed of manager.installed()) features.add(installed.module.id.toString());
    engine.start();
    harness = new GameHarness(world, engine, journal, store, events, manager, bridge, clock, cards, reported);
    for (const line of logger.lines) harness.logger.lines.push(line);
    await events.start();
    return harness;
  }

  /** The features this player has now: every installed one minus those turned off for them. */
  features(playerId: string): Set<string> {
    const off = this.disabled.get(playerId) ?? new Set<string>();
    return new Set(
      this.manager
        .installed()
        .map((entry) => entry.module.id.toString())
        .filter((id) => !off.has(id)),
    );
  }

  request(playerId: string, locale = "en_us"): ExecutionRequest {
    return {
      requestId: `r-${Math.random().toString(36).slice(2)}`,
      playerId,
      locale,
      features: this.features(playerId),
    };
  }

  /** Parses a line through the engine's command tree and runs the action (what the host does for `/system …`). */
  async command(playerId: string, text: string, locale = "en_us"): Promise<AgentResult> {
    const outcome = await this.engine
      .modules()
      .commands()
      .parse(text, {
        playerId,
        permissionLevel: 0,
        features: this.features(playerId),
      });
    if (outcome.kind !== "action")
      throw new Error(`"${text}" is not a command here: ${JSON.stringify(outcome)}`);
    return this.engine.execute(outcome.action, this.request(playerId, locale));
  }

  run(action: AgentAction, playerId: string, locale = "en_us"): Promise<AgentResult> {
    return this.engine.execute(action, this.request(playerId, locale));
  }

  /** The result's card as a player reads it: template and arguments formatted, then the button labels. */
  render(
    result: AgentResult,
    locale = "en_us",
  ): { text: string; buttons: { label: string; action: string; args: readonly string[] }[] } {
    const presentation = result.presentation;
    if (presentation === undefined) throw new Error("the result has no card");
    const decoded = this.cards.decode(presentation);
    if (!decoded.success) throw new Error(decoded.error);
    const view = buildCard(decoded.value).build();
    return {
      text: formatText(this.languages, locale, translatable(view.template, ...view.arguments)),
      buttons: view.buttons.map((button) => ({
        label: formatText(this.languages, locale, translatable(button.labelKey, ...(button.labelArgs ?? []))),
        action: button.action,
        args: button.args,
      })),
    };
  }

  async close(removeWorld = true): Promise<void> {
    await this.events.whenIdle();
    await this.store.close();
    await this.journal.close();
    if (removeWorld) await rm(this.world, { recursive: true, force: true });
  }
}
