import { AgentResult } from "../agent/agent-result.js";
import type { CardRef } from "../agent/card/card-ref.js";
import { BudgetCounters } from "../agent/execution/budget-counters.js";
import type { EventExecutor } from "../agent/execution/event-executor.js";
import { fingerprintOf } from "../agent/execution/interactive-executor.js";
import { replayKeyOf } from "../agent/execution/replay-cache.js";
import type { UnconfirmedEvents } from "../agent/execution/unconfirmed-events.js";
import { isReplayedModule } from "../agent/routing/direct-qualification.js";
import type { HybridRouter } from "../agent/routing/hybrid-router.js";
import type { Text } from "../agent/text.js";
import { GameEventTypes } from "../game/game-events.js";
import { ANY_MOB, KILL_INTERESTS } from "../game/kill-interests.js";
import { CORE_PLAYER_ACTIONS } from "../module/builtin/core/player-commands.js";
import type { ModuleManager } from "../module/module-manager.js";
import type { PermissionService } from "../module/permissions/permission-service.js";
import {
  type AssistantParts,
  type AssistantServerOptions,
  assembleAssistant,
  logModel,
} from "./assistant-assembly.js";
import type { AssistantInfrastructure } from "./assistant-services.js";
import { CardClicks } from "./card-clicks.js";
import { type PresentedCard, presentResult } from "./card-presenter.js";
import { CardSpeech } from "./card-speech.js";
import type { AssistantCoreServices } from "./core-services-impl.js";
import { PlayerCommandTrees } from "./player-command-trees.js";
import type { PlayerInfo } from "./player-directory.js";
import { PlayerGameEvents } from "./player-game-events.js";
import { newRequestId } from "./request-pipeline.js";
import type { ProgressListener } from "./thinking-indicator.js";

/** `card <ref> <index>`: a click on a card button, as the chat component sends it after `/system`. */
const CLICK = /^card\s+(\S+)\s+(\S+)$/iu;

/**
 * Controls of the player's own session run beside the running request: cancel (it must reach a busy player) and
 * clear (it forgets the memory generation any running request depends on).
 */
const CONTROLS: ReadonlySet<string> = new Set(
  [CORE_PLAYER_ACTIONS.CANCEL, CORE_PLAYER_ACTIONS.CLEAR].map((type) => type.id.toString()),
);

/** What an empty `/system` runs. */
const HELP_LINE = "/help";

/** Receives a card for a player outside any request. */
export type NoticeListener = (playerId: string, card: PresentedCard) => void;

/** What the host gets back for one line: the card to show (undefined for silent results) and the raw result. */
export interface AssistantReply {
  readonly result: AgentResult;
  readonly card: PresentedCard | undefined;
}

/**
 * The assembled assistant of one game server. `create` builds every service in dependency order from explicit
 * arguments (nothing is attached later); the host talks to it only through the facade below: join, leave,
 * submit a line, click, completions, command tree, notices and close.
 */
export class AssistantServer {
  readonly #clicks: CardClicks;
  readonly #noticeListeners: NoticeListener[] = [];
  readonly #commandListeners: ((uuid: string) => void)[] = [];
  readonly #gameEvents: PlayerGameEvents;
  /** Each player's last join or leave, which their next one waits for. */
  readonly #turns = new Map<string, Promise<void>>();
  /** The commands each player may use: the game's command tree, the panel's list, completions. */
  readonly commands: PlayerCommandTrees;
  /** What cards say aloud: narration in game (speech on), the panel's voice. */
  readonly speech: CardSpeech;

  private constructor(private readonly parts: AssistantParts) {
    const refresh = (playerId: string): void => {
      for (const listener of this.#commandListeners) listener(playerId);
    };
    this.commands = new PlayerCommandTrees({
      engine: parts.infrastructure.engine,
      permissions: parts.permissions,
      pipeline: parts.pipeline,
      router: parts.router,
      infrastructure: parts.infrastructure,
      changed: refresh,
    });
    this.speech = new CardSpeech(parts.infrastructure);
    this.#clicks = new CardClicks(parts);
    this.#gameEvents = new PlayerGameEvents(
      parts.advancements,
      parts.clock,
      parts.infrastructure.store,
      parts.infrastructure.logger,
    );
    parts.infrastructure.lifecycles.register({ onPermissionChange: refresh, onRevoke: refresh });
  }

  static async create(options: AssistantServerOptions): Promise<AssistantServer> {
    let server: AssistantServer | undefined;
    // a task settles only after `events.start()` below, once the server exists
    const parts = await assembleAssistant(options, (playerId, result) => server?.notify(playerId, result));
    server = new AssistantServer(parts);
    await parts.events.start();
    const { infrastructure, modules } = parts;
    infrastructure.logger.info(
      `assistant ready: ${modules.installed().length} features, ${infrastructure.engine.modules().values().length} workflows`,
    );
    logModel(infrastructure);
    return server;
  }

  /**
   * Re-reads config files, prompts, data packs and advancements as `/system reload` does, without telling
   * anyone (another server of the network asked for it).
   */
  reloadConfig(): Promise<Text> {
    return this.parts.reload();
  }

  /** The permission service (admin tools and tests read a player's snapshot). */
  get permissions(): PermissionService {
    return this.parts.permissions;
  }

  /** Installed features. */
  get modules(): ModuleManager {
    return this.parts.modules;
  }

  /** The hybrid router (the route explanation CLI asks it directly). */
  get router(): HybridRouter {
    return this.parts.router;
  }

  /** Usage, access and modes as the core commands read them (the web panel's admin page shows them too). */
  get core(): AssistantCoreServices {
    return this.parts.core;
  }

  /**
   * Durable event tasks: recent ones, those an admin must resolve (the panel), when none runs (tests), and a
   * player's read again and run (`playerJoined`: in a network, another server queued one for a player here).
   */
  get events(): UnconfirmedEvents & Pick<EventExecutor, "whenIdle" | "playerJoined" | "resumeWaiting"> {
    return this.parts.events;
  }

  /** The infrastructure (stores, configs) for tools and tests that inspect what the server keeps. */
  get infrastructure(): AssistantInfrastructure {
    return this.parts.infrastructure;
  }

  /**
   * A player joined. Joins and leaves of one player run one after another: a quick rejoin waits for the leave
   * before it (which saves and unloads the player's record), so the leave never unloads the new session.
   */
  join(player: PlayerInfo): Promise<void> {
    return this.#inTurn(player.uuid, () => this.#join(player));
  }

  /** A player left (see `join` for the order). */
  leave(uuid: string): Promise<void> {
    return this.#inTurn(uuid, () => this.#leave(uuid));
  }

  /** Resolves once the player's join or leave in progress (if any) has finished: what it queued is queued. */
  turnSettled(uuid: string): Promise<void> {
    return this.#turns.get(uuid) ?? Promise.resolve();
  }

  /** Runs a join or leave after the player's previous one settled. */
  #inTurn(uuid: string, work: () => Promise<void>): Promise<void> {
    const previous = this.#turns.get(uuid) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => {});
    this.#turns.set(uuid, settled);
    void settled.then(() => {
      if (this.#turns.get(uuid) === settled) this.#turns.delete(uuid);
    });
    return next;
  }

  async #join(player: PlayerInfo): Promise<void> {
    const { infrastructure, permissions, events } = this.parts;
    const first = infrastructure.players.join(player);
    await permissions.setOpLevel(player.uuid, player.opLevel);
    await infrastructure.store.load(player.uuid);
    // features repair what a crash left half-done (a recorded claim whose delivery was never queued)
    await infrastructure.lifecycles.join(player.uuid);
    await events.playerJoined(player.uuid);
    // game events: the advancement rules decide what runs (a welcome and starter kit on the first join)
    await this.#gameEvents.joined(player.uuid, first, () => infrastructure.players.remember(player));
  }

  /** The host saw a player die. */
  died(uuid: string): Promise<void> {
    return this.#gameEvents.died(uuid);
  }

  /** The host moved a player into another dimension (`minecraft:the_nether`). */
  changedDimension(uuid: string, dimension: string): Promise<void> {
    return this.#gameEvents.changedDimension(uuid, dimension);
  }

  /** The host saw a player complete an advancement the game shows (`minecraft:story/mine_diamond`). */
  advanced(uuid: string, advancement: string): Promise<void> {
    return this.#gameEvents.advanced(uuid, advancement);
  }

  /** The host saw a player kill an entity (`minecraft:zombie`) whose own id is `entityId` (one event per entity). */
  killed(uuid: string, entity: string, entityId: string): Promise<void> {
    return this.#gameEvents.killed(uuid, entity, entityId);
  }

  /**
   * The entity types whose kills count for a player now: those of enabled `system:kill` rules naming an entity,
   * and those features count (kill tasks of quests the player can work on). Hosts that must ask the server for
   * kill counts (the gateway's RCON) ask only for these.
   */
  async huntedEntities(uuid: string): Promise<ReadonlySet<string>> {
    const entities = new Set(await this.parts.services.get(KILL_INTERESTS).of(uuid));
    for (const rule of this.parts.advancements.rules()) {
      if (!rule.enabled || rule.trigger.event !== GameEventTypes.KILL) continue;
      const entity = rule.trigger.conditions.entity;
      // a rule for any mob's kill: a host that reads statistics counts mob kills as a whole too
      entities.add(typeof entity === "string" ? entity.toLowerCase() : ANY_MOB);
    }
    return entities;
  }

  /**
   * Playtime: one `system:playtime` event per whole minute online this session (with the total over every
   * session). The host calls it periodically; tests call it after moving the clock.
   */
  tickPlaytime(): Promise<void> {
    // a daily model quota comes back at midnight: the trees that left model workflows out are sent again
    this.commands.recheckAll();
    return this.#gameEvents.tickPlaytime();
  }

  /** The host saw a player's standing in the game change (operator level): permissions follow at once. */
  async updatePlayer(player: PlayerInfo): Promise<void> {
    this.parts.infrastructure.players.update(player);
    await this.parts.permissions.setOpLevel(player.uuid, player.opLevel);
  }

  async #leave(uuid: string): Promise<void> {
    const { infrastructure } = this.parts;
    await this.#gameEvents.left(uuid);
    infrastructure.players.leave(uuid);
    this.#clicks.forget(uuid);
    await infrastructure.lifecycles.disconnect(uuid);
    await infrastructure.store.unload(uuid);
  }

  /** One line after `/system`: a card click (`card <ref> <index>`) or a typed line (see `submit`). */
  handle(player: PlayerInfo, line: string): Promise<AssistantReply> {
    const click = CLICK.exec(line.trim());
    return click === null ? this.submit(player, line) : this.click(player, click[1] ?? "", click[2] ?? "");
  }

  /**
   * One typed line: the text after `/system` (`/item diamond` for an explicit command, plain text otherwise) or a
   * shortcut line (`/reason …`). The line is parsed once; `/system cancel` runs beside the player's running
   * request, everything else through the interactive executor. Never throws.
   */
  /** `requestId`: the id the request runs under (a host that counts it names it; a new one otherwise). */
  async submit(player: PlayerInfo, line: string, requestId = newRequestId()): Promise<AssistantReply> {
    const { infrastructure, permissions, pipeline, interactive } = this.parts;
    infrastructure.players.update(player);
    // the game's operator level is read at every request: a player may type before their join has settled
    await permissions.setOpLevel(player.uuid, player.opLevel);
    // an empty `/system` is a request for help, never a model call
    const text = line.trim() === "" ? HELP_LINE : line.trim();
    const snapshot = permissions.snapshot(player.uuid);
    const generation = infrastructure.generations.generation(player.uuid);
    const command = await infrastructure.engine
      .modules()
      .commands()
      .parse(text, pipeline.routingPlayer(snapshot, player.locale, generation));
    // a command of a feature still waiting for what it lacks says so (`/system quests` without quest files)
    const waiting = command.kind === "action" ? undefined : this.parts.modules.waitingCommand(text);
    let result: AgentResult;
    if (waiting !== undefined) result = AgentResult.error(waiting);
    else if (command.kind === "action" && CONTROLS.has(command.action.type.id.toString()))
      result = await pipeline.control(command.action, {
        requestId,
        snapshot,
        locale: player.locale,
        generation,
        signal: new AbortController().signal,
        counters: new BudgetCounters(),
      });
    else {
      // an answer is shared only while it runs; a later repeat of a replayable write (check-in) is answered by the
      // replay cache, as the workflow declares
      const writes = command.kind === "action" && isReplayedModule(command.module);
      result = await interactive.submit({
        requestId,
        playerId: player.uuid,
        locale: player.locale,
        text,
        // a resent line shares the running answer, but not across a permission or memory change
        fingerprint: `${snapshot.version}|${generation}|${fingerprintOf(text)}`,
        ...(writes ? { replayKey: replayKeyOf(command.action) } : {}),
        payload: { kind: "text", command },
      });
    }
    return { result, card: this.present(player, result) };
  }

  /** Button `index` of card `ref` (`/system card <ref> <index>`) of the player's current page, run as a request. */
  async click(
    player: PlayerInfo,
    refText: string,
    indexText: string,
    requestId = newRequestId(),
  ): Promise<AssistantReply> {
    const result = await this.#clicks.click(player, refText, indexText, requestId);
    return { result, card: this.present(player, result) };
  }

  /**
   * A click that names the button by its action and arguments (the web panel's CardActionRequest): honoured only
   * when it is one of the buttons of this player's current page of that card, then run like a chat click.
   */
  async clickAction(
    player: PlayerInfo,
    card: CardRef,
    action: string,
    args: readonly string[],
    requestId = newRequestId(),
  ): Promise<AssistantReply> {
    const result = await this.#clicks.clickAction(player, card, action, args, requestId);
    return { result, card: this.present(player, result) };
  }

  /** Whether `head` (the first word after `/system`) names a command, so the line is run as explicit. */
  isCommand(head: string): boolean {
    return this.parts.infrastructure.engine.modules().commands().moduleOf(head) !== undefined;
  }

  /** Listens for cards that arrive without a request (a delivered reward); the host shows them in chat. */
  onNotice(listener: NoticeListener): void {
    this.#noticeListeners.push(listener);
  }

  /** Listens for progress lines ("thinking…" while a model call waits); the host shows them in the action bar. */
  onProgress(listener: ProgressListener): void {
    this.parts.progress.listen(listener);
  }

  /** Listens for permission changes after which a player's command tree must be sent again. */
  onCommandsChanged(listener: (uuid: string) => void): void {
    this.#commandListeners.push(listener);
  }

  /** Shows an event's outcome to its player when they are online; silent results show nothing. */
  notify(playerId: string, result: AgentResult): void {
    const player = this.parts.infrastructure.players.online(playerId);
    if (player === undefined) return;
    const card = this.present(player, result);
    if (card === undefined) return;
    for (const listener of this.#noticeListeners) listener(playerId, card);
  }

  /** Renders a result for a player (also used for event notices). */
  present(player: PlayerInfo, result: AgentResult): PresentedCard | undefined {
    const { infrastructure } = this.parts;
    return presentResult({
      result,
      locale: player.locale,
      cards: infrastructure.cards,
      issued: this.#clicks.issued(player.uuid),
      languages: infrastructure.languages,
    });
  }

  text(locale: string, key: string, ...args: string[]): string {
    return this.parts.infrastructure.languages.format(locale, key, args);
  }

  /**
   * Lets joins and leaves in progress finish (a leave saves playtime), stops the executors, flushes history and
   * player files, closes the journal, usage and features.
   */
  async close(): Promise<void> {
    const { infrastructure, interactive, modules } = this.parts;
    await Promise.all([...this.#turns.values()]);
    await infrastructure.tasks.shutdown();
    await interactive.flush();
    await infrastructure.store.flush();
    await infrastructure.store.close();
    await infrastructure.journal.close();
    await modules.close();
    // the host that opened the storage closes it after the assistant (startSystem, the gateway)
    if (infrastructure.ownsStorage) await infrastructure.storage.close();
  }
}

export type { AssistantServerOptions } from "./assistant-assembly.js";
