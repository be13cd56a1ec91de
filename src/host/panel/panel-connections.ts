import { AgentFailure } from "../../agent/agent-failure.js";
import { AgentResult } from "../../agent/agent-result.js";
import type { CardView } from "../../agent/card/card-builder.js";
import { showCard } from "../../agent/card/card-update.js";
import type { AgentRequest } from "../../agent/request/agent-request.js";
import { CardActionRequest } from "../../agent/request/card-action-request.js";
import { ChatRequest } from "../../agent/request/chat-request.js";
import { ControlRequest } from "../../agent/request/control-request.js";
import { PreferencesRequest } from "../../agent/request/preferences-request.js";
import { SystemRequestTypes } from "../../agent/request/system-request-types.js";
import type { AgentResponse } from "../../agent/response/agent-response.js";
import { BindingResponse, type BindingState } from "../../agent/response/binding-response.js";
import { NoticeResponse } from "../../agent/response/notice-response.js";
import { acceptProtocol, type ProtocolSession } from "../../agent/response/protocol-server.js";
import { ReplyResponse } from "../../agent/response/reply-response.js";
import { SystemResponseTypes } from "../../agent/response/system-response-types.js";
import { literal } from "../../agent/text.js";
import type { AssistantReply, AssistantServer } from "../../assistant/assistant-server.js";
import type { PlayerInfo } from "../../assistant/player-directory.js";
import { isSlashLine, slashLine } from "../../assistant/typed-line.js";
import { ADMIN_LEVEL } from "../../module/builtin/core/core-services.js";
import type { FrameChannel } from "../../util/frame-transport.js";
import type { Logger } from "../../util/logger.js";
import { Registry } from "../../util/registry.js";
import { observedReply } from "../shared/telemetry/observed-reply.js";
import type { PanelSessions } from "./panel-sessions.js";
import { panelHistory, panelState } from "./panel-views.js";

/** Requests one panel connection may send per window, beyond which it is answered BUSY. */
const RATE_LIMIT = { requests: 20, windowMillis: 10_000 };

type RequestHandler = (connection: Connection, request: AgentRequest, limited: boolean) => Promise<void>;

interface Connection {
  readonly playerId: string;
  readonly token: string;
  readonly session: ProtocolSession;
  readonly recent: number[];
}

/**
 * The open panels: one protocol session per WebSocket, bound to one player. Every request runs through the same
 * assistant facade as game chat (executors, permissions, budgets); a panel sees only its player's cards, history
 * and notices. A panel acts while its player is online in the game.
 */
export class PanelConnections {
  readonly #open = new Set<Connection>();
  readonly #requestTypes = SystemRequestTypes.builtin();
  readonly #handlers = new Registry<RequestHandler>("panel request handlers");
  /** What each control request answers with (the others are not served by the panel). */
  readonly #controls = new Map<ControlRequest, (connection: Connection) => Promise<AgentResponse>>([
    [ControlRequest.HISTORY, (connection) => panelHistory(this.assistant, connection.playerId)],
    [
      ControlRequest.STATE,
      (connection) => panelState(this.assistant, connection.playerId, connection.session),
    ],
  ]);
  readonly #responseTypes = SystemResponseTypes.builtin();

  constructor(
    readonly assistant: AssistantServer,
    private readonly sessions: PanelSessions,
    private readonly logger: Logger,
  ) {
    this.#registerHandlers();
    assistant.onNotice((playerId, card) => {
      for (const connection of this.#open)
        if (connection.playerId === playerId)
          connection.session.send(
            new NoticeResponse(literal(card.title), showCard(card.page, this.#spoken(playerId, card.view))),
          );
    });
    // the panel's completions follow the player's commands, as the game's tree does
    assistant.onCommandsChanged((playerId) => {
      for (const connection of this.#open)
        if (connection.playerId === playerId)
          panelState(assistant, playerId, connection.session).then(
            (state) => connection.session.send(state),
            (error: unknown) => logger.warn(`panel state for ${playerId} failed: ${String(error)}`),
          );
    });
  }

  /** The bound player's name, language and mode for the page; `admin` while they are online as an operator. */
  describe(
    playerId: string | undefined,
  ): { player: string; locale: string; admin: boolean; mode: string } | undefined {
    if (playerId === undefined) return undefined;
    const directory = this.assistant.infrastructure.players;
    const online = directory.online(playerId);
    return {
      player: online?.name ?? directory.nameOf(playerId) ?? playerId,
      locale: online?.locale ?? "en_us",
      admin: this.isAdmin(playerId),
      mode: this.assistant.core.modeOf(playerId).mode,
    };
  }

  /**
   * Completions of the last word of a line typed in the panel (`/system item dia`, `item dia`), as the game gives
   * them: the player's commands, item names and quest titles in the player's language.
   */
  async complete(playerId: string, line: string): Promise<readonly string[]> {
    const directory = this.assistant.infrastructure.players;
    const online = directory.online(playerId);
    const player = online ?? {
      uuid: playerId,
      name: directory.nameOf(playerId) ?? playerId,
      locale: "en_us",
      opLevel: 0,
    };
    return this.assistant.commands.completions(player, line.replace(/^\/?(system\s+)?/iu, ""));
  }

  /** An operator now: online with the admin level (the same level admin commands require in chat). */
  isAdmin(playerId: string): boolean {
    return (this.assistant.infrastructure.players.online(playerId)?.opLevel ?? 0) >= ADMIN_LEVEL;
  }

  open(channel: FrameChannel, playerId: string, token: string): void {
    let connection: Connection | undefined;
    const session = acceptProtocol(channel, {
      requestTypes: this.#requestTypes,
      responseTypes: this.#responseTypes,
      cardTypes: this.assistant.infrastructure.cards,
      logger: this.logger,
      handle: (request) => (connection === undefined ? undefined : this.#handle(connection, request)),
    });
    connection = { playerId, token, session, recent: [] };
    this.#open.add(connection);
    const opened = connection;
    channel.onClose(() => this.#open.delete(opened));
  }

  /** Pushes REVOKED / INVALIDATED to a player's open panels and closes them. */
  ended(playerId: string, state: BindingState): void {
    for (const connection of [...this.#open])
      if (connection.playerId === playerId) this.#end(connection, state);
  }

  endedToken(token: string, state: BindingState): void {
    for (const connection of [...this.#open]) if (connection.token === token) this.#end(connection, state);
  }

  closeAll(): void {
    for (const connection of [...this.#open]) connection.session.close();
    this.#open.clear();
  }

  #end(connection: Connection, state: BindingState): void {
    connection.session.send(new BindingResponse(state));
    this.#open.delete(connection);
    setTimeout(() => connection.session.close(), 100).unref();
  }

  async #handle(connection: Connection, request: AgentRequest): Promise<void> {
    // a revoked or expired binding serves nothing more
    if (this.sessions.playerOf(connection.token) !== connection.playerId)
      return this.#end(connection, "REVOKED");
    const now = Date.now();
    const recent = connection.recent;
    while (recent.length > 0 && (recent[0] ?? 0) <= now - RATE_LIMIT.windowMillis) recent.shift();
    const limited = recent.length >= RATE_LIMIT.requests;
    recent.push(now);
    const handler = this.#handlers.get(request.type);
    if (handler !== undefined) return handler(connection, request, limited);
    // a request type the panel does not serve (an invoke): a correlated one is answered, never run
    if ("requestId" in request && typeof request.requestId === "string")
      connection.session.send(
        new ReplyResponse(request.requestId, AgentResult.error(AgentFailure.PERMISSION_DENIED)),
      );
  }

  /** One handler per request type the panel serves, registered by the type's id (no switch over types). */
  #registerHandlers(): void {
    const handlers = this.#handlers;
    handlers.register(ChatRequest.TYPE, (connection, request, limited) =>
      this.#act(connection, request as ChatRequest, limited),
    );
    handlers.register(CardActionRequest.TYPE, (connection, request, limited) =>
      this.#act(connection, request as CardActionRequest, limited),
    );
    handlers.register(ControlRequest.TYPE, async (connection, request) => {
      const view = this.#controls.get(request as ControlRequest);
      if (view !== undefined) connection.session.send(await view(connection));
    });
    handlers.register(PreferencesRequest.TYPE, async (connection, request) => {
      const { history, external } = request as PreferencesRequest;
      await this.assistant.infrastructure.conversation.setPreferences(connection.playerId, {
        history,
        external,
      });
      connection.session.send(await panelState(this.assistant, connection.playerId, connection.session));
    });
    handlers.freeze();
  }

  /** A typed line or a card click: through the assistant's facade, as the player, while they are online. */
  async #act(
    connection: Connection,
    request: ChatRequest | CardActionRequest,
    limited: boolean,
  ): Promise<void> {
    const { session, playerId } = connection;
    const reply = (answer: AssistantReply): void =>
      session.send(
        new ReplyResponse(
          request.requestId,
          answer.result,
          answer.card === undefined
            ? undefined
            : showCard(answer.card.page, this.#spoken(playerId, answer.card.view)),
        ),
      );
    if (limited) return reply({ result: AgentResult.error(AgentFailure.BUSY), card: undefined });
    const player = this.assistant.infrastructure.players.online(playerId);
    if (player === undefined)
      return reply({
        result: AgentResult.error({
          code: AgentFailure.PERMISSION_DENIED.code,
          key: "system.panel.offline",
          args: [],
        }),
        card: undefined,
      });
    reply(await this.#run(player, request));
  }

  /** A live card carries what it says aloud (the panel speaks it when its Speech switch is on). */
  #spoken(playerId: string, view: CardView): CardView {
    if (view.speech !== undefined) return view;
    const locale = this.assistant.infrastructure.players.online(playerId)?.locale ?? "en_us";
    const speech = this.assistant.speech.spokenContent(locale, view);
    return speech === undefined ? view : { ...view, speech };
  }

  /**
   * A click, or a typed line. A slash line is a command exactly as in game chat (an unknown or mistyped one gets
   * "Unknown command" or its usage line, never routing); any other line is plain text (a complete command in it
   * still runs, the rest is routed).
   */
  #run(player: PlayerInfo, request: ChatRequest | CardActionRequest): Promise<AssistantReply> {
    const button = request instanceof CardActionRequest || /^\/?system\s+card\s/iu.test(request.text);
    return observedReply(this.assistant, button ? "button" : "panel", player.uuid, (requestId) =>
      this.#line(player, request, requestId),
    );
  }

  #line(
    player: PlayerInfo,
    request: ChatRequest | CardActionRequest,
    requestId: string,
  ): Promise<AssistantReply> {
    if (request instanceof CardActionRequest)
      return this.assistant.clickAction(player, request.card, request.action, request.args, requestId);
    if (!isSlashLine(request.text)) return this.assistant.submit(player, request.text, requestId);
    const line = slashLine(request.text, (head) => this.assistant.isCommand(head));
    return line.kind === "click"
      ? this.assistant.click(player, line.ref, line.index, requestId)
      : this.assistant.submit(player, line.text, requestId);
  }
}
