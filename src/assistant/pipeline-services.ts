import { AgentException } from "../agent/agent-exception.js";
import { AgentFailure } from "../agent/agent-failure.js";
import type { CardRegistry } from "../agent/card/card-registry.js";
import type { AgentEngine } from "../agent/execution/agent-engine.js";
import { BudgetCounters } from "../agent/execution/budget-counters.js";
import type { EventAdmission, EventExecutor, EventSubmission } from "../agent/execution/event-executor.js";
import type { ModuleContext, ServiceContext } from "../agent/module/context-type.js";
import type { ModuleRegistry } from "../agent/module/module-registry.js";
import type { AssistantInfrastructure } from "./assistant-services.js";
import { AssistantContextTypes, type EventSink, systemClock } from "./context-types.js";
import { gameData, ItemCatalog, ItemSources } from "./game-data/index.js";
import type { ModeTargets } from "./request-pipeline.js";

/** The game version whose item data System uses (the embedded server's version). */
export const GAME_DATA_VERSION = "1.21.4";

/**
 * Services the assembly injects into features through ModuleContext, including late-bound ones (the event
 * executor exists only after features are installed, so features get a sink that forwards to it).
 */
export class PipelineServices {
  #events: EventExecutor | undefined;
  #opLevel: (playerId: string) => number = () => 0;

  constructor(private readonly infrastructure: AssistantInfrastructure) {}

  provideTo(services: ServiceContext<AgentEngine, ModuleRegistry>): void {
    const catalog = ItemCatalog.forVersion(GAME_DATA_VERSION);
    const sink: EventSink = {
      submit: (event: EventSubmission): Promise<EventAdmission> => {
        if (this.#events === undefined) throw new AgentException(AgentFailure.BUSY);
        return this.#events.submit(event);
      },
    };
    services
      .provide(AssistantContextTypes.ITEM_CATALOG, catalog)
      .provide(AssistantContextTypes.ITEM_SOURCES, new ItemSources(gameData(GAME_DATA_VERSION), catalog))
      .provide(AssistantContextTypes.AGENT_STORE, this.infrastructure.store)
      .provide(AssistantContextTypes.EVENTS, sink)
      .provide(AssistantContextTypes.CARDS, this.infrastructure.cards)
      .provide(AssistantContextTypes.LANGUAGES, this.infrastructure.languages)
      .provide(AssistantContextTypes.CLOCK, systemClock())
      .provide(AssistantContextTypes.PERMISSION_LEVEL, (playerId: string) => this.#opLevel(playerId));
  }

  registerCards(_cards: CardRegistry): void {}

  attachEvents(events: EventExecutor): void {
    this.#events = events;
  }

  attachPermissionLevels(opLevel: (playerId: string) => number): void {
    this.#opLevel = opLevel;
  }

  /** Fresh counters for a request that bypasses the interactive executor (card clicks, cancel). */
  counters(): BudgetCounters {
    return new BudgetCounters();
  }

  /** Which actions plain text becomes in the `ask` and `full` modes, when those features are installed. */
  modeTargets(_engine: AgentEngine): ModeTargets {
    return {};
  }
}

export type AssistantModuleContext = ModuleContext<AgentEngine, ModuleRegistry>;
