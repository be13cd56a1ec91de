import type { AgentResult } from "../../agent/agent-result.js";
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
import { BIND_CARD } from "../../module/builtin/panel/panel-feature.js";

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
    const view = cardForResult(spentCodeHidden(turn.result), cards)?.build();
    return view === undefined ? turn : { ...turn, card: view };
  });
  // in the order they happened: a request's turns are written when it ends, so one that ended later but began
  // earlier (a slow answer) is put back in place; entries of the same moment keep their stored order
  return new HistoryResponse(
    entries
      .map((entry, index) => ({ entry, index }))
      .sort((left, right) => left.entry.at - right.entry.at || left.index - right.index)
      .map(({ entry }) => entry),
  );
};

/** What a restored binding card shows instead of its code: a code is single use, and spent once seen here. */
const SPENT_CODE = "••••••••";

/** A `/system bind` card as history shows it: the code hidden, since it is used or expired by now. */
const spentCodeHidden = (result: AgentResult): AgentResult => {
  const presentation = result.presentation;
  if (presentation?.type !== BIND_CARD.id.toString()) return result;
  const data = presentation.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return result;
  return result.withPresentation({ type: presentation.type, data: { ...data, code: SPENT_CODE } });
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
