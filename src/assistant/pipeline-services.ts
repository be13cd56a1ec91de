import { join } from "node:path";
import { AgentException } from "../agent/agent-exception.js";
import { AgentFailure } from "../agent/agent-failure.js";
import type { CardRegistry } from "../agent/card/card-registry.js";
import type { AgentEngine } from "../agent/execution/agent-engine.js";
import { BudgetCounters } from "../agent/execution/budget-counters.js";
import type { EventAdmission, EventExecutor, EventSubmission } from "../agent/execution/event-executor.js";
import type { AgentAction } from "../agent/module/action-type.js";
import type { ModuleContext, ServiceContext } from "../agent/module/context-type.js";
import type { ModuleRegistry } from "../agent/module/module-registry.js";
import { KnowledgeDatabase } from "../data/knowledge/knowledge-database.js";
import { type EventSink, GameContextTypes, systemClock } from "../game/context-types.js";
import { gameData, ItemCatalog, ItemSources } from "../game/data/index.js";
import { KNOWLEDGE_DATABASE } from "../module/builtin/knowledge/knowledge-module.js";
import { ANSWER_CARD } from "../module/builtin/question/answer-card.js";
import { PLAYER_SWITCHES, type PlayerSwitches } from "../module/builtin/question/player-switches.js";
import { PROMPT_SOURCE } from "../module/builtin/question/question-services.js";
import { REASONING_CARD } from "../module/builtin/reasoning/reasoning-card.js";
import { WEB_ACCESS, WebAccess } from "../module/builtin/search/web-access.js";
import type { AssistantInfrastructure } from "./assistant-services.js";
import type { ModeTargets } from "./request-pipeline.js";

/** The workflows plain text goes to in the `ask` and `full` execution modes (docs/execution-modes.md). */
export const MODE_WORKFLOWS = { ask: "system:question", full: "system:free_chat" } as const;

/** The game version whose item data System uses (the embedded server's version). */
export const GAME_DATA_VERSION = "1.21.4";

/**
 * Services the assembly injects into features through ModuleContext, including late-bound ones (the event
 * executor exists only after features are installed, so features get a sink that forwards to it).
 */
export class PipelineServices {
  #events: EventExecutor | undefined;
  #opLevel: (playerId: string) => number = () => 0;
  #availability: (playerId: string, moduleId: string) => boolean = () => true;
  #switches: PlayerSwitches | undefined;
  #knowledge: KnowledgeDatabase | undefined;

  constructor(private readonly infrastructure: AssistantInfrastructure) {}

  provideTo(services: ServiceContext<AgentEngine, ModuleRegistry>): void {
    const catalog = ItemCatalog.forVersion(GAME_DATA_VERSION);
    const sink: EventSink = {
      submit: (event: EventSubmission): Promise<EventAdmission> => {
        if (this.#events === undefined) throw new AgentException(AgentFailure.BUSY);
        return this.#events.submit(event);
      },
    };
    this.#knowledge = KnowledgeDatabase.open(
      join(this.infrastructure.paths.world, "system", "knowledge.sqlite"),
    );
    const switches: PlayerSwitches = {
      aiEnabled: (playerId) => this.#switches?.aiEnabled(playerId) ?? false,
      externalAllowed: (playerId) => this.#switches?.externalAllowed(playerId) ?? false,
      featureEnabled: (playerId, featureId) => this.#switches?.featureEnabled(playerId, featureId) ?? false,
    };
    services
      .provide(KNOWLEDGE_DATABASE, this.#knowledge)
      .provide(WEB_ACCESS, new WebAccess())
      .provide(PLAYER_SWITCHES, switches)
      .provide(PROMPT_SOURCE, this.infrastructure.prompts)
      .provide(GameContextTypes.ITEM_CATALOG, catalog)
      .provide(GameContextTypes.ITEM_SOURCES, new ItemSources(gameData(GAME_DATA_VERSION), catalog))
      .provide(GameContextTypes.AGENT_STORE, this.infrastructure.store)
      .provide(GameContextTypes.EVENTS, sink)
      .provide(GameContextTypes.CARDS, this.infrastructure.cards)
      .provide(GameContextTypes.LANGUAGES, this.infrastructure.languages)
      .provide(GameContextTypes.CLOCK, systemClock())
      .provide(GameContextTypes.PERMISSION_LEVEL, (playerId: string) => this.#opLevel(playerId))
      .provide(GameContextTypes.AVAILABILITY, (playerId: string, moduleId: string) =>
        this.#availability(playerId, moduleId),
      );
  }

  registerCards(cards: CardRegistry): void {
    cards.register(ANSWER_CARD);
    cards.register(REASONING_CARD);
  }

  /** The live switches (AI, external services, features) the question and reasoning workflows check. */
  attachSwitches(switches: PlayerSwitches): void {
    this.#switches = switches;
  }

  /** The knowledge database (admin commands, shutdown). */
  get knowledge(): KnowledgeDatabase | undefined {
    return this.#knowledge;
  }

  attachEvents(events: EventExecutor): void {
    this.#events = events;
  }

  attachPermissionLevels(opLevel: (playerId: string) => number): void {
    this.#opLevel = opLevel;
  }

  attachAvailability(availability: (playerId: string, moduleId: string) => boolean): void {
    this.#availability = availability;
  }

  /** Fresh counters for a request that bypasses the interactive executor (card clicks, cancel). */
  counters(): BudgetCounters {
    return new BudgetCounters();
  }

  /**
   * Which actions plain text becomes in the `ask` and `full` modes: the installed workflow with that action id
   * (input `{text}`), or none, and then the pipeline routes the text as in `routing` mode.
   */
  modeTargets(engine: AgentEngine): ModeTargets {
    const target =
      (id: string) =>
      (text: string): AgentAction | undefined => {
        const module = engine.modules().get(id);
        if (module === undefined) return undefined;
        // Plain text never opens the web: workflows that take `allowWeb` get false.
        const input = module.action.codec.decode({ text, allowWeb: false });
        return input.success ? module.action.action(input.value) : undefined;
      };
    return { ask: target(MODE_WORKFLOWS.ask), full: target(MODE_WORKFLOWS.full) };
  }
}

export type AssistantModuleContext = ModuleContext<AgentEngine, ModuleRegistry>;
