import type { AgentResult } from "../../../agent/agent-result.js";
import { cardForResult } from "../../../agent/card/message-card.js";
import { formatText } from "../../../agent/text-format.js";
import type { AssistantServer } from "../../../assistant/assistant-server.js";
import type { AssistantHostHandler } from "../../shared/assistant-handler.js";
import type { Dialog } from "../../shared/dialog.js";
import {
  historyDialog,
  historyEntryDialog,
  settingsDialog,
  type WindowText,
} from "../../shared/window/window-pages.js";
import type { GatewayHostPlayer } from "../assistant/gateway-host-player.js";

/** Exchanges the History page lists, newest first. */
const HISTORY_ENTRIES = 10;

/** A dialog still to be numbered: the window gives it its number when it is shown. */
export type PendingDialog = (window: number) => Dialog;

interface Exchange {
  readonly asked: string;
  readonly result: AgentResult;
}

/**
 * The window's pages that read the player's state rather than run a request: History (from the stored
 * conversation, as the panel restores it) and Settings (the same preferences `/system settings` changes, changed
 * through that command so permissions and cards are those of chat).
 */
export class WindowPages {
  /** The exchanges each player's History page listed last (an entry click names one by position). */
  readonly #listed = new Map<string, readonly Exchange[]>();

  constructor(
    private readonly assistant: AssistantServer,
    private readonly handler: AssistantHostHandler,
  ) {}

  async page(player: GatewayHostPlayer, page: "history" | "settings"): Promise<PendingDialog> {
    return page === "history" ? this.#history(player) : this.#settings(player);
  }

  /** One listed exchange: the stored answer's card, read only. */
  async entry(player: GatewayHostPlayer, index: number): Promise<PendingDialog> {
    const exchange = this.#listed.get(player.uuid)?.[index];
    if (exchange === undefined) return this.#history(player);
    const locale = this.handler.playerInfo(player).locale;
    const card = storedCardText(this.assistant, locale, exchange.result) ?? {
      title: exchange.asked,
      lines: [],
      failed: exchange.result.isFailure(),
    };
    return (window) => historyEntryDialog({ text: this.#text(locale), window, asked: exchange.asked, card });
  }

  /** Saves what changed, each through `/system settings <key> on|off`, and shows the page again. */
  async saveSettings(
    player: GatewayHostPlayer,
    chosen: { readonly history: boolean; readonly external: boolean; readonly speech: boolean },
  ): Promise<PendingDialog> {
    const current = await this.#preferences(player.uuid);
    const said: string[] = [];
    for (const key of ["history", "external", "speech"] as const) {
      if (chosen[key] === current[key]) continue;
      const card = await this.handler.onWindowRequest(player, {
        text: `/system settings ${key} ${chosen[key] ? "on" : "off"}`,
      });
      if (card !== undefined) said.push(card.title);
    }
    const locale = this.handler.playerInfo(player).locale;
    const note = said.length === 0 ? this.#text(locale)("system.window.settings.unchanged") : said.join("\n");
    return this.#settings(player, note);
  }

  async #history(player: GatewayHostPlayer): Promise<PendingDialog> {
    const locale = this.handler.playerInfo(player).locale;
    const turns = await this.assistant.infrastructure.conversation.history(player.uuid);
    const asked = new Map<string, string>();
    const exchanges: Exchange[] = [];
    for (const turn of turns)
      if (turn.role === "user") asked.set(turn.requestId, turn.text);
      else {
        const text = asked.get(turn.requestId);
        if (text !== undefined) exchanges.push({ asked: text, result: turn.result });
      }
    const listed = exchanges.reverse().slice(0, HISTORY_ENTRIES);
    this.#listed.set(player.uuid, listed);
    const entries = listed.map((exchange) => ({
      asked: exchange.asked,
      answer: storedCardText(this.assistant, locale, exchange.result)?.title ?? "",
    }));
    return (window) => historyDialog({ text: this.#text(locale), window, entries });
  }

  async #settings(player: GatewayHostPlayer, note?: string): Promise<PendingDialog> {
    const locale = this.handler.playerInfo(player).locale;
    const preferences = await this.#preferences(player.uuid);
    return (window) =>
      settingsDialog({
        text: this.#text(locale),
        window,
        settings: { ...preferences, language: locale },
        ...(note === undefined ? {} : { note }),
      });
  }

  async #preferences(uuid: string): Promise<{ history: boolean; external: boolean; speech: boolean }> {
    const stored = await this.assistant.infrastructure.conversation.preferences(uuid);
    return {
      history: stored?.history ?? true,
      external: stored?.external ?? true,
      speech: stored?.speech === true,
    };
  }

  #text(locale: string): WindowText {
    return (key, ...args) => this.assistant.text(locale, key, ...args);
  }
}

/** A stored answer's card text in the player's language (history shows it without buttons). */
export const storedCardText = (
  assistant: AssistantServer,
  locale: string,
  result: AgentResult,
): { title: string; lines: string[]; failed: boolean } | undefined => {
  const view = cardForResult(result, assistant.infrastructure.cards)?.build();
  if (view === undefined) return undefined;
  const text = formatText(assistant.infrastructure.languages, locale, {
    kind: "translatable",
    key: view.template,
    args: view.arguments,
  });
  const [title = "", ...lines] = text.split("\n");
  return { title, lines, failed: result.isFailure() };
};
