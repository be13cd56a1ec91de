import type { AgentResult } from "../agent/agent-result.js";
import { MESSAGE_CARD } from "../agent/card/message-card.js";
import { SELECTION_CARD } from "../agent/card/selection-card.js";
import { ServerCards } from "../agent/card/server-cards.js";
import type { CommandTreeNode } from "../agent/command/command-registry.js";
import { EventExecutor } from "../agent/execution/event-executor.js";
import { EventRules } from "../agent/execution/event-rules.js";
import { fingerprintOf, InteractiveExecutor } from "../agent/execution/interactive-executor.js";
import { PromptNames } from "../agent/model/prompt-source.js";
import { type ContextType, ServiceContext } from "../agent/module/context-type.js";
import { HybridRouter } from "../agent/routing/hybrid-router.js";
import { BUILTIN_PACK_ROOT } from "../data/prompts/prompt-store.js";
import { GameContextTypes } from "../game/context-types.js";
import type { GameBridge } from "../game/game-bridge.js";
import { CORE_SERVICES } from "../module/builtin/core/core-services.js";
import { CANCEL } from "../module/builtin/core/player-commands.js";
import { ModuleManager } from "../module/module-manager.js";
import { PermissionService } from "../module/permissions/permission-service.js";
import type { AnyServerModuleType } from "../module/server-module.js";
import { readSystemModuleEntries } from "../module/system-module-entries.js";
import type { Logger } from "../util/logger.js";
import {
  type AssistantInfrastructure,
  type AssistantPaths,
  openInfrastructure,
} from "./assistant-services.js";
import { moduleTypeRegistry } from "./builtin-module-types.js";
import { type PresentedCard, presentResult } from "./card-presenter.js";
import { AssistantCoreServices, reloadSummary } from "./core-services-impl.js";
import { PipelineServices } from "./pipeline-services.js";
import type { PlayerInfo } from "./player-directory.js";
import { newRequestId, RequestPipeline } from "./request-pipeline.js";

/** Receives a card for a player outside any request. */
export type NoticeListener = (playerId: string, card: PresentedCard) => void;

/** Forwards settled event results to the server once it exists (events may settle while it is being built). */
class Notices {
  #server: AssistantServer | undefined;
  attach(server: AssistantServer): void {
    this.#server = server;
  }
  publish(playerId: string, result: AgentResult): void {
    this.#server?.notify(playerId, result);
  }
}

/** Aliases also registered as top-level game commands when their feature is installed. */
export const SHORTCUT_ALIASES: ReadonlySet<string> = new Set(["reason", "question", "search"]);

export interface AssistantServerOptions {
  readonly paths: AssistantPaths;
  readonly bridge: GameBridge;
  readonly logger: Logger;
  readonly extraTypes?: readonly AnyServerModuleType[];
  /** Extra services for extension features, by context type. */
  readonly services?: readonly [ContextType<unknown>, unknown][];
  readonly environment?: Readonly<Record<string, string | undefined>>;
  readonly now?: () => number;
}

/** What the host gets back for one line: the card to show (undefined for silent results) and the raw result. */
export interface AssistantReply {
  readonly result: AgentResult;
  readonly card: PresentedCard | undefined;
}

/**
 * The assembled assistant of one game server: engine, features, routing, executors and stores. The host talks to
 * it only through join/leave/handle/completions/commandTree/close; it never sees engine internals.
 */
export class AssistantServer {
  readonly #issued = new Map<string, ServerCards>();
  readonly #noticeListeners: NoticeListener[] = [];

  private constructor(
    readonly infrastructure: AssistantInfrastructure,
    readonly modules: ModuleManager,
    readonly permissions: PermissionService,
    readonly router: HybridRouter,
    readonly interactive: InteractiveExecutor,
    readonly events: EventExecutor,
    private readonly pipeline: RequestPipeline,
    private readonly pipelineServices: PipelineServices,
  ) {}

  static async create(options: AssistantServerOptions): Promise<AssistantServer> {
    const infrastructure = await openInfrastructure({
      paths: options.paths,
      logger: options.logger,
      ...(options.environment === undefined ? {} : { environment: options.environment }),
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    const { engine, logger } = infrastructure;
    let reload: () => Promise<void> = async () => {};
    const core = new AssistantCoreServices(infrastructure, async () => {
      await reload();
      return reloadSummary(["config", "prompts", "access"]);
    });
    const pipelineServices = new PipelineServices(infrastructure);
    const notices = new Notices();
    const services = new ServiceContext(engine, engine.modules())
      .provide(CORE_SERVICES, core)
      .provide(GameContextTypes.GAME_BRIDGE, options.bridge);
    pipelineServices.provideTo(services);
    for (const [type, service] of options.services ?? []) services.provide(type, service);
    infrastructure.cards.register(MESSAGE_CARD);
    infrastructure.cards.register(SELECTION_CARD);
    pipelineServices.registerCards(infrastructure.cards);
    const modules = new ModuleManager({
      types: moduleTypeRegistry(options.extraTypes),
      engine,
      services,
      logger,
    });
    modules.install(readSystemModuleEntries([BUILTIN_PACK_ROOT, ...options.paths.packRoots], logger));
    engine.start();
    infrastructure.cards.freeze();
    const permissions = new PermissionService({
      access: infrastructure.access,
      modules,
      lifecycles: infrastructure.lifecycles,
    });
    const router = new HybridRouter({
      modules: engine.modules(),
      settings: () => infrastructure.semanticConfig.get(),
      model: infrastructure.gateway,
      system: () => infrastructure.prompts.get(PromptNames.ROUTER),
      policyOf: (module) => engine.policyOf(module),
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    infrastructure.lifecycles.register({
      onPermissionChange: (playerId) => router.cache.invalidate(playerId),
      onRevoke: (playerId) => router.cache.invalidate(playerId),
    });
    infrastructure.generations.onBump((playerId) => router.cache.invalidate(playerId));
    const pipeline = new RequestPipeline({
      engine,
      router,
      cards: infrastructure.cards,
      modes: pipelineServices.modeTargets(engine),
      modelConfigured: () => infrastructure.modelConfig.configured(),
    });
    const interactive = new InteractiveExecutor({
      pool: infrastructure.tasks.interactive,
      generations: infrastructure.generations,
      conversation: infrastructure.conversation,
      backgroundHistory: true,
      logger,
      handler: (request, signal, counters) =>
        pipeline.run({
          requestId: request.requestId,
          text: request.text,
          snapshot: permissions.snapshot(request.playerId),
          locale: request.locale,
          generation: request.generation,
          signal,
          counters,
        }),
    });
    const events = new EventExecutor({
      engine,
      journal: infrastructure.journal,
      pool: infrastructure.tasks.event,
      rules: EventRules.fromModules(engine.modules().values()),
      isOnline: (playerId) => options.bridge.isOnline(playerId),
      features: (playerId) => permissions.snapshot(playerId).features,
      locale: (playerId) => infrastructure.players.online(playerId)?.locale ?? "en_us",
      onSettled: (task, result) => notices.publish(task.playerId, result),
      logger,
    });
    pipelineServices.attachEvents(events);
    pipelineServices.attachPermissionLevels((playerId) => permissions.snapshot(playerId).opLevel);
    core.attach({ permissions, interactive, router, modules });
    reload = async () => {
      for (const config of [
        infrastructure.agentConfig,
        infrastructure.modelConfig,
        infrastructure.semanticConfig,
        infrastructure.access,
      ])
        await config.reload();
      await infrastructure.prompts.reload();
      await permissions.invalidateAll();
    };
    await events.start();
    logger.info(
      `assistant ready: ${modules.installed().length} features, ${engine.modules().values().length} workflows, model ${
        infrastructure.modelConfig.configured() ? "configured" : "not configured"
      }`,
    );
    return new AssistantServer(
      infrastructure,
      modules,
      permissions,
      router,
      interactive,
      events,
      pipeline,
      pipelineServices,
    );
  }

  async join(player: PlayerInfo): Promise<void> {
    await this.infrastructure.players.join(player);
    await this.permissions.setOpLevel(player.uuid, player.opLevel);
    await this.infrastructure.store.load(player.uuid);
    await this.events.playerJoined(player.uuid);
  }

  async leave(uuid: string): Promise<void> {
    this.infrastructure.players.leave(uuid);
    this.#issued.delete(uuid);
    await this.infrastructure.lifecycles.disconnect(uuid);
    await this.infrastructure.store.unload(uuid);
  }

  /**
   * One line from a player: the text after `/system` (or a shortcut line such as `/reason …`). Card clicks
   * (`card <ref> <index>`) and `/system cancel` run beside the per-player exclusivity; everything else goes
   * through the interactive executor. Never throws.
   */
  async handle(player: PlayerInfo, line: string): Promise<AssistantReply> {
    this.infrastructure.players.update(player);
    const snapshot = this.permissions.snapshot(player.uuid);
    const generation = this.infrastructure.generations.generation(player.uuid);
    const base = {
      requestId: newRequestId(),
      snapshot,
      locale: player.locale,
      generation,
      signal: new AbortController().signal,
    };
    const text = line.trim();
    const click = /^card\s+(\S+)\s+(\S+)$/i.exec(text);
    let result: AgentResult;
    if (click !== null) {
      result = await this.pipeline.click(
        { ...base, text, counters: this.pipelineServices.counters() },
        this.#cards(player.uuid),
        click[1] ?? "",
        click[2] ?? "",
      );
    } else {
      const command = await this.infrastructure.engine
        .modules()
        .commands()
        .parse(text, this.pipeline.routingPlayer(snapshot, player.locale, generation));
      if (command.kind === "action" && command.action.type === CANCEL)
        result = await this.pipeline.execute(command.action, {
          ...base,
          text,
          counters: this.pipelineServices.counters(),
        });
      else
        result = await this.interactive.submit({
          requestId: base.requestId,
          playerId: player.uuid,
          locale: player.locale,
          text,
          // a resent line shares the running answer, but not across a permission or memory change
          fingerprint: `${snapshot.version}|${generation}|${fingerprintOf(text)}`,
        });
    }
    return { result, card: this.present(player, result) };
  }

  /** Listens for cards that arrive without a request (a delivered reward); the host shows them in chat. */
  onNotice(listener: NoticeListener): void {
    this.#noticeListeners.push(listener);
  }

  /** Shows an event's outcome to its player when they are online; silent results show nothing. */
  notify(playerId: string, result: AgentResult): void {
    const player = this.infrastructure.players.online(playerId);
    if (player === undefined) return;
    const card = this.present(player, result);
    if (card === undefined) return;
    for (const listener of this.#noticeListeners) listener(playerId, card);
  }

  /** Renders a result for a player (also used for event notices). */
  present(player: PlayerInfo, result: AgentResult): PresentedCard | undefined {
    return presentResult({
      result,
      locale: player.locale,
      cards: this.infrastructure.cards,
      issued: this.#cards(player.uuid),
      languages: this.infrastructure.languages,
    });
  }

  /** Completions for the last token of a line (after `/system`), filtered by the player's permissions. */
  async completions(player: PlayerInfo, line: string): Promise<string[]> {
    const snapshot = this.permissions.snapshot(player.uuid);
    const identity = this.pipeline.routingPlayer(snapshot, player.locale, 0);
    return this.infrastructure.engine.modules().commands().completions(line, identity);
  }

  /** The command tree this player may use (the host sends it to the client under `/system`). */
  commandTree(player: PlayerInfo): CommandTreeNode[] {
    const snapshot = this.permissions.snapshot(player.uuid);
    return this.infrastructure.engine
      .modules()
      .commands()
      .tree(this.pipeline.routingPlayer(snapshot, player.locale, 0));
  }

  /** Command aliases the game registers as top-level commands too (`/reason …`, `/question …`). */
  shortcuts(): string[] {
    const registry = this.infrastructure.engine.modules().commands();
    return [...registry.aliases().keys()].filter((alias) => SHORTCUT_ALIASES.has(alias));
  }

  /** Welcome text for a joining player. */
  welcome(player: PlayerInfo): string {
    return this.infrastructure.languages.format(player.locale, "system.welcome", []);
  }

  text(locale: string, key: string, ...args: string[]): string {
    return this.infrastructure.languages.format(locale, key, args);
  }

  #cards(playerId: string): ServerCards {
    let cards = this.#issued.get(playerId);
    if (cards === undefined) {
      cards = new ServerCards();
      this.#issued.set(playerId, cards);
    }
    return cards;
  }

  async close(): Promise<void> {
    await this.infrastructure.tasks.shutdown();
    await this.interactive.flush();
    await this.infrastructure.store.flush();
    await this.infrastructure.store.close();
    await this.infrastructure.journal.close();
    await this.infrastructure.usage.flush();
    this.pipelineServices.knowledge?.close();
  }
}
