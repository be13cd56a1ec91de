import { cardForResult } from "../../agent/card/message-card.js";
import {
  type HistoryEntry,
  HistoryResponse,
  MAX_HISTORY_ENTRIES,
} from "../../agent/response/history-response.js";
import type { ProtocolSession } from "../../agent/response/protocol-server.js";
import { PROTOCOL_VERSION } from "../../agent/response/protocol-version.js";
import { StateResponse } from "../../agent/response/state-response.js";
import type { AssistantServer } from "../../assistant/assistant-server.js";

/**
 * The player's stored conversation as the panel restores it: read-only (the wire form of a history card has no
 * buttons and no speech, so a restored page can neither run a button nor speak).
 */
export const panelHistory = async (
  assistant: AssistantServer,
  playerId: string,
): Promise<HistoryResponse> => {
  const { conversation, cards } = assistant.infrastructure;
  const turns = (await conversation.history(playerId)).slice(-MAX_HISTORY_ENTRIES);
  const entries: HistoryEntry[] = turns.map((turn) => {
    if (turn.role === "user") return turn;
    const view = cardForResult(turn.result, cards)?.build();
    return view === undefined ? turn : { ...turn, card: view };
  });
  return new HistoryResponse(entries);
};

/** What this player may type now (completions) and their preferences, with the session's id tables. */
export const panelState = async (
  assistant: AssistantServer,
  playerId: string,
  session: ProtocolSession,
): Promise<StateResponse> => {
  const directory = assistant.infrastructure.players;
  const online = directory.online(playerId);
  const player = online ?? {
    uuid: playerId,
    name: directory.nameOf(playerId) ?? playerId,
    locale: "en_us",
    opLevel: 0,
  };
  const commands = assistant.commands.tree(player).map((node) => {
    const argument = node.children.find((child) => child.kind === "argument");
    return {
      literal: node.name,
      usage: argument === undefined ? node.name : `${node.name} <${argument.name}>`,
    };
  });
  return new StateResponse({
    protocolVersion: PROTOCOL_VERSION,
    commands,
    completions: commands.map((command) => command.literal),
    preferences: await assistant.infrastructure.conversation.preferences(playerId),
    registries: session.tables(),
  });
};
