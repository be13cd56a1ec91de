/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// First: configures zod before any schema of the shared code is created.
import "./shims/zod-jitless.js";
import type { CardButton, CardView } from "../../../agent/card/card-builder.js";
import type { CardRef } from "../../../agent/card/card-ref.js";
import type { CardUpdate } from "../../../agent/card/card-update.js";
import type { CorrelatedRequest } from "../../../agent/request/agent-request.js";
import { CardActionRequest } from "../../../agent/request/card-action-request.js";
import { ChatRequest } from "../../../agent/request/chat-request.js";
import { ControlRequest } from "../../../agent/request/control-request.js";
import { PreferencesRequest } from "../../../agent/request/preferences-request.js";
import type { AgentResponse } from "../../../agent/response/agent-response.js";
import { BindingResponse } from "../../../agent/response/binding-response.js";
import { type HistoryEntry, HistoryResponse } from "../../../agent/response/history-response.js";
import { NoticeResponse } from "../../../agent/response/notice-response.js";
import { ProtocolClient, ProtocolRefusedError } from "../../../agent/response/protocol-client.js";
import type { ReplyResponse } from "../../../agent/response/reply-response.js";
import { StateResponse } from "../../../agent/response/state-response.js";
import { connectBrowserChannel, getSession, postJson, readJson } from "./browser-channel.js";
import {
  buttonRow,
  cardElement,
  completionOptions,
  historyElements,
  localizePage,
  PanelText,
  setSpeechEnabled,
  speak,
  speechEnabled,
  ui,
} from "./panel-text.js";
import { randomUUID } from "./shims/crypto.js";

/** How long a chat or button request may take (model calls can be slow). */
const REQUEST_TIMEOUT_MILLIS = 180_000;

const byId = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`#${id} is missing from the page`);
  return element as T;
};

const page = {
  player: byId("player"),
  admin: byId<HTMLAnchorElement>("admin"),
  unbind: byId<HTMLButtonElement>("unbind"),
  bindView: byId("bind-view"),
  bindForm: byId<HTMLFormElement>("bind-form"),
  bindCode: byId<HTMLInputElement>("bind-code"),
  bindButton: byId<HTMLButtonElement>("bind-button"),
  bindError: byId("bind-error"),
  panelView: byId("panel-view"),
  status: byId("status"),
  history: byId("history"),
  log: byId("log"),
  chatForm: byId<HTMLFormElement>("chat-form"),
  message: byId<HTMLInputElement>("message"),
  completions: byId<HTMLDataListElement>("completions"),
  mode: byId<HTMLSelectElement>("mode"),
  historySetting: byId<HTMLInputElement>("setting-history"),
  externalSetting: byId<HTMLInputElement>("setting-external"),
  speechSetting: byId<HTMLInputElement>("setting-speech"),
};

/** One open protocol connection; `ended` once the binding ended or the socket closed. */
interface Live {
  readonly client: ProtocolClient;
  readonly text: PanelText;
  ended: boolean;
}

let live: Live | undefined;

const setStatus = (message: string): void => {
  page.status.textContent = message;
};

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Enables or disables everything the player can act with in the panel (not Unbind, which always works). */
const setPanelEnabled = (enabled: boolean): void => {
  const controls = [page.message, page.mode, page.historySetting, page.externalSetting];
  for (const control of controls) control.disabled = !enabled;
  for (const button of page.panelView.querySelectorAll("button")) button.disabled = !enabled;
};

// ---- Binding --------------------------------------------------------------------------------------------------

const showBindForm = (): void => {
  endLive();
  page.player.textContent = "";
  page.admin.hidden = true;
  page.unbind.hidden = true;
  page.panelView.hidden = true;
  page.bindView.hidden = false;
  page.bindCode.focus();
};

page.bindForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const code = page.bindCode.value.trim();
  if (code === "") return;
  page.bindError.textContent = "";
  page.bindButton.disabled = true;
  try {
    const response = await postJson("/api/bind", { code });
    const body = await readJson(response);
    if (response.ok && typeof body.player === "string") {
      page.bindCode.value = "";
      void openPanel(
        body.player,
        typeof body.locale === "string" ? body.locale : "en_us",
        body.admin === true,
        typeof body.mode === "string" ? body.mode : "",
      );
    } else
      page.bindError.textContent =
        typeof body.error === "string" ? body.error : ui("bindFailed", String(response.status));
  } catch {
    page.bindError.textContent = ui("unreachable");
  } finally {
    page.bindButton.disabled = false;
  }
});

page.unbind.addEventListener("click", async () => {
  try {
    const response = await postJson("/api/unbind", {});
    if (response.ok) showBindForm();
    else setStatus(ui("requestFailed", `HTTP ${response.status}`));
  } catch {
    setStatus(ui("unreachable"));
  }
});

// ---- The protocol connection ------------------------------------------------------------------------------------

/** Bumped by every open and by unbinding, so a connection that finishes opening too late closes itself. */
let generation = 0;

const endLive = (): void => {
  generation++;
  if (live !== undefined) live.ended = true;
  live?.client.close();
  live = undefined;
};

const openPanel = async (player: string, locale: string, admin = false, mode = ""): Promise<void> => {
  endLive();
  const opening = generation;
  page.player.textContent = player;
  page.admin.hidden = !admin;
  page.mode.value = mode;
  page.unbind.hidden = false;
  page.bindView.hidden = true;
  page.panelView.hidden = false;
  page.history.replaceChildren();
  page.log.replaceChildren();
  setPanelEnabled(false);
  setStatus(ui("connecting"));
  const text = await PanelText.load(locale);
  try {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const channel = await connectBrowserChannel(`${scheme}//${location.host}/ws`);
    const client = await ProtocolClient.connect(channel, { client: "panel" });
    if (opening !== generation) return client.close();
    const opened: Live = { client, text, ended: false };
    live = opened;
    channel.onClose((error) => {
      if (opened.ended) return;
      opened.ended = true;
      setPanelEnabled(false);
      setStatus(ui("disconnected", error?.message ?? "closed"));
    });
    client.onResponse((response) => handleResponse(opened, response));
    client.send(ControlRequest.HISTORY);
    client.send(ControlRequest.STATE);
  } catch (error) {
    if (opening !== generation) return;
    const session = await getSession().catch(() => ({ bound: true }));
    if (session.bound !== true) return showBindForm();
    const refused = error instanceof ProtocolRefusedError;
    return setStatus(refused ? ui("refused", text.text(error.reason)) : errorMessage(error));
  }
  setStatus("");
  setPanelEnabled(true);
  page.historySetting.disabled = true; // until the first state says what is stored
  page.externalSetting.disabled = true;
  page.message.focus();
};

const handleResponse = (current: Live, response: AgentResponse): void => {
  if (current.ended) return;
  if (response instanceof NoticeResponse) {
    if (!applyCard(current, response.card))
      addCard(cardElement(current.text.text(response.message), ["notice"]));
  } else if (response instanceof BindingResponse) {
    if (response.state === "BOUND") current.client.send(ControlRequest.STATE);
    else {
      current.ended = true;
      setPanelEnabled(false);
      setStatus(ui(response.state === "REVOKED" ? "revoked" : "invalidated"));
      current.client.close();
    }
  } else if (response instanceof StateResponse) showState(response);
  else if (response instanceof HistoryResponse) showHistory(current, response.entries);
};

// ---- Rendering ---------------------------------------------------------------------------------------------------

const addCard = (element: HTMLElement): void => {
  page.log.append(element);
  element.scrollIntoView({ block: "nearest" });
};

/** Shows a reply: its card, else its message (a failure as a `failed` card); silent results show nothing. */
const showReply = (current: Live, reply: ReplyResponse): void => {
  if (current.ended || applyCard(current, reply.card)) return;
  const { result } = reply;
  if (result.silent || result.message === undefined) return;
  addCard(cardElement(current.text.text(result.message), result.isFailure() ? ["failed"] : []));
};

/**
 * Puts a card update on the page; true when it was a page to show (even a stale one). The client already applied
 * it to `client.cards`, which ignores stale updates: only the page it now holds for that card is rendered.
 */
const applyCard = (current: Live, update: CardUpdate | undefined): boolean => {
  if (update === undefined) return false;
  const { id, version } = update.ref;
  const existing = page.log.querySelector<HTMLElement>(`.card[data-card-id="${CSS.escape(id)}"]`);
  const shown = current.client.cards.get(id);
  if (update.op === "REMOVE") {
    if (shown === undefined && existing !== null && Number(existing.dataset.cardVersion) <= version)
      existing.remove();
    return false;
  }
  if (shown?.version !== version) return true;
  const element = liveCard(current, update.ref, update.view);
  if (existing === null) addCard(element);
  else existing.replaceWith(element);
  if (page.speechSetting.checked && update.view.speech !== undefined) speak(current.text, update.view.speech);
  return true;
};

const liveCard = (current: Live, ref: CardRef, view: CardView): HTMLElement => {
  const card = cardElement(current.text.view(view), [], ref);
  if (view.buttons.length > 0)
    card.append(buttonRow(current.text, view.buttons, (button, row) => runAction(current, ref, button, row)));
  return card;
};

/** Sends a chat or button request and shows its reply, or why it failed. */
const ask = async (current: Live, request: CorrelatedRequest): Promise<void> => {
  try {
    showReply(current, await current.client.request(request, REQUEST_TIMEOUT_MILLIS));
  } catch (error) {
    if (!current.ended) addCard(cardElement(ui("requestFailed", errorMessage(error)), ["failed"]));
  }
};

/** A button click: the page it came from, its action and arguments; the card's buttons wait for the reply. */
const runAction = async (
  current: Live,
  ref: CardRef,
  button: CardButton,
  row: HTMLElement,
): Promise<void> => {
  if (current.ended) return;
  const controls = [...row.querySelectorAll("button")];
  for (const control of controls) control.disabled = true;
  const card = { id: ref.id, version: ref.version };
  await ask(current, new CardActionRequest(randomUUID(), card, button.action, [...button.args]));
  if (!current.ended) for (const control of controls) control.disabled = false;
};

const sendChat = async (typed: string): Promise<void> => {
  const current = live;
  // sent as typed: the server reads a slash line as a command, exactly as game chat does
  const text = typed.trim();
  if (current === undefined || current.ended || text === "") return;
  const line = document.createElement("div");
  line.className = "line user";
  line.textContent = typed.trim();
  addCard(line);
  await ask(current, new ChatRequest(randomUUID(), text));
};

/** The restored conversation, read-only: no buttons, no speech. */
const showHistory = (current: Live, entries: readonly HistoryEntry[]): void => {
  const elements = historyElements(current.text, entries);
  page.history.replaceChildren(...elements);
  elements.at(-1)?.scrollIntoView({ block: "nearest" });
};

/** The commands' own completions, from the last state (the list the input offers before an argument). */
let commandOptions: HTMLOptionElement[] = [];

const showState = (state: StateResponse): void => {
  commandOptions = completionOptions(state);
  page.completions.replaceChildren(...commandOptions);
  page.historySetting.checked = state.preferences.history;
  page.externalSetting.checked = state.preferences.external;
  const enabled = live !== undefined && !live.ended;
  page.historySetting.disabled = !enabled;
  page.externalSetting.disabled = !enabled;
};

// ---- Input and settings ------------------------------------------------------------------------------------------

/** Bumped by every keystroke, so only the answer for the line as it is now fills the list. */
let completing = 0;

// After a command and a space, the server completes the last word as in game (item names, quest titles).
page.message.addEventListener("input", async () => {
  const typed = page.message.value;
  const asked = ++completing;
  if (!/\S\s/u.test(typed)) {
    page.completions.replaceChildren(...commandOptions);
    return;
  }
  try {
    const response = await fetch(`/api/complete?line=${encodeURIComponent(typed)}`);
    const body = (await response.json()) as { matches?: unknown };
    if (asked !== completing || !Array.isArray(body.matches)) return;
    const kept = typed.slice(0, typed.lastIndexOf(" ") + 1);
    page.completions.replaceChildren(
      ...body.matches.map((match) => {
        const option = document.createElement("option");
        option.value = `${kept}${String(match)}`;
        return option;
      }),
    );
  } catch {
    // completion is a help: typing goes on without it
  }
});

page.chatForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const typed = page.message.value;
  page.message.value = "";
  // a typed mode change (`mode ask`, `模式 ask`) moves the menu too
  void sendChat(typed).then(() =>
    /^(\/system\s+)?(mode|模式)(\s|$)/iu.test(typed.trim()) ? refreshMode() : undefined,
  );
});

/** The player's mode as the server has it now (a refused choice leaves it unchanged). */
const refreshMode = async (): Promise<void> => {
  const session = await getSession().catch(() => ({}) as Record<string, unknown>);
  if (typeof session.mode === "string") page.mode.value = session.mode;
};

page.mode.addEventListener("change", () => {
  if (page.mode.value !== "") void sendChat(`mode ${page.mode.value}`).then(refreshMode);
});

const sendPreferences = (): void => {
  if (live === undefined || live.ended) return;
  live.client.send(new PreferencesRequest(page.historySetting.checked, page.externalSetting.checked));
};
page.historySetting.addEventListener("change", sendPreferences);
page.externalSetting.addEventListener("change", sendPreferences);

page.speechSetting.checked = speechEnabled();
page.speechSetting.addEventListener("change", () => setSpeechEnabled(page.speechSetting.checked));

// ---- Start -------------------------------------------------------------------------------------------------------

const start = async (): Promise<void> => {
  localizePage(document);
  try {
    const session = await getSession();
    if (session.bound === true && typeof session.player === "string")
      await openPanel(
        session.player,
        typeof session.locale === "string" ? session.locale : "en_us",
        session.admin === true,
        typeof session.mode === "string" ? session.mode : "",
      );
    else showBindForm();
  } catch {
    showBindForm();
    page.bindError.textContent = ui("unreachable");
  }
};

void start();
