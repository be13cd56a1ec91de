/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { CardButton, CardView, SpeechContent } from "../../../agent/card/card-builder.js";
import type { HistoryEntry } from "../../../agent/response/history-response.js";
import type { StateResponse } from "../../../agent/response/state-response.js";
import { type Text, translatable } from "../../../agent/text.js";
import { formatText } from "../../../agent/text-format.js";
import { Languages, normalizeLocale } from "../../../util/language.js";

/** Renders player-facing Text with the server's translation tables for the player's locale (then en_us, the key). */
export class PanelText {
  private constructor(
    private readonly languages: Languages,
    readonly locale: string,
  ) {}

  /** Fetches `/lang/en_us.json` and the locale's table; a table that cannot be fetched falls back to the keys. */
  static async load(locale: string): Promise<PanelText> {
    const normalized = normalizeLocale(locale);
    const safe = /^[a-z]{2,3}_[a-z0-9]{2,8}$/.test(normalized) ? normalized : "en_us";
    const languages = new Languages();
    const locales = safe === "en_us" ? ["en_us"] : ["en_us", safe];
    const tables = await Promise.all(locales.map(fetchTable));
    for (const [index, name] of locales.entries()) languages.add(name, tables[index] ?? {});
    return new PanelText(languages, safe);
  }

  text(text: Text): string {
    return formatText(this.languages, this.locale, text);
  }

  /** A card's body: its template translated with its Text arguments. */
  view(view: CardView): string {
    return this.text(translatable(view.template, ...view.arguments));
  }

  button(button: CardButton): string {
    return this.languages.format(this.locale, button.labelKey, button.labelArgs ?? []);
  }

  /** The BCP 47 tag of the player's locale, for speech (`zh_cn` → `zh-CN`). */
  speechLanguage(): string {
    const [language = "en", region] = this.locale.split("_");
    return region === undefined ? language : `${language}-${region.toUpperCase()}`;
  }
}

const fetchTable = async (locale: string): Promise<Record<string, string>> => {
  try {
    const response = await fetch(`/lang/${locale}.json`);
    if (!response.ok) return {};
    const table: unknown = await response.json();
    if (typeof table !== "object" || table === null || Array.isArray(table)) return {};
    return Object.fromEntries(
      Object.entries(table).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  } catch {
    return {};
  }
};

/** The page's own strings (not the server's): English, or Chinese when the browser prefers it. */
const UI = {
  en: {
    connecting: "Connecting…",
    revoked: "Binding REVOKED: this panel is no longer linked to a player.",
    invalidated: "Binding INVALIDATED: this session is no longer valid; unbind and bind again.",
    disconnected: "Disconnected (%s). Reload the page to reconnect.",
    refused: "The server refused the connection: %s",
    requestFailed: "The request failed: %s",
    bindFailed: "Binding failed (HTTP %s).",
    unreachable: "The server cannot be reached.",
  },
  zh: {
    connecting: "正在连接…",
    revoked: "绑定已撤销（REVOKED）：此面板不再关联任何玩家。",
    invalidated: "绑定已失效（INVALIDATED）：此会话已无效，请解除绑定后重新绑定。",
    disconnected: "连接已断开（%s）。刷新页面以重新连接。",
    refused: "服务器拒绝了连接：%s",
    requestFailed: "请求失败：%s",
    bindFailed: "绑定失败（HTTP %s）。",
    unreachable: "无法连接到服务器。",
  },
} as const;

export type UiKey = keyof (typeof UI)["en"];

/** True when the browser's preferred language is Chinese. */
export const prefersChinese = (): boolean =>
  (globalThis.navigator?.language ?? "").toLowerCase().startsWith("zh");

/** A page string with `%s` replaced by `argument`. */
export const ui = (key: UiKey, argument = ""): string =>
  UI[prefersChinese() ? "zh" : "en"][key].replace("%s", () => argument);

/** Switches elements marked `data-zh` to their Chinese text (accessible names stay English: see index.html). */
export const localizePage = (root: Document): void => {
  if (!prefersChinese()) return;
  root.documentElement.lang = "zh-CN";
  for (const element of root.querySelectorAll<HTMLElement>("[data-zh]"))
    element.textContent = element.dataset.zh ?? element.textContent;
};

/** One card element: `card` plus `classes`, the body text (multi-line kept by CSS) and optional buttons. */
export const cardElement = (
  body: string,
  classes: readonly string[],
  ref?: { readonly id: string; readonly version: number },
): HTMLDivElement => {
  const card = document.createElement("div");
  card.className = ["card", ...classes].join(" ");
  if (ref !== undefined) {
    card.dataset.cardId = ref.id;
    card.dataset.cardVersion = String(ref.version);
  }
  const text = document.createElement("div");
  text.className = "card-body";
  text.textContent = body;
  card.append(text);
  return card;
};

/** A card's buttons; `onClick` gets the button and the row (to disable it while the action runs). */
export const buttonRow = (
  text: PanelText,
  buttons: readonly CardButton[],
  onClick: (button: CardButton, row: HTMLElement) => Promise<void>,
): HTMLDivElement => {
  const row = document.createElement("div");
  row.className = "card-buttons";
  for (const button of buttons) {
    const element = document.createElement("button");
    element.type = "button";
    element.textContent = text.button(button);
    element.addEventListener("click", () => void onClick(button, row));
    row.append(element);
  }
  return row;
};

/** History entries as read-only `card history` elements (a user turn also `user`): never buttons or speech. */
export const historyElements = (text: PanelText, entries: readonly HistoryEntry[]): HTMLElement[] => {
  const elements: HTMLElement[] = [];
  for (const entry of entries) {
    let element: HTMLElement;
    if (entry.role === "user") element = cardElement(entry.text, ["history", "user"]);
    else if (entry.card !== undefined) element = cardElement(text.view(entry.card), ["history", "assistant"]);
    else if (entry.result.message !== undefined && !entry.result.silent) {
      const failed = entry.result.isFailure() ? ["failed"] : [];
      element = cardElement(text.text(entry.result.message), ["history", "assistant", ...failed]);
    } else continue;
    element.title = new Date(entry.at).toLocaleString();
    elements.push(element);
  }
  return elements;
};

/** Completions for the message input: command literals (labelled with their usage), then other candidates. */
export const completionOptions = (state: StateResponse): HTMLOptionElement[] => {
  const options = new Map<string, string>();
  for (const command of state.commands) options.set(command.literal, command.usage);
  for (const completion of state.completions) if (!options.has(completion)) options.set(completion, "");
  return [...options].map(([value, usage]) => {
    const option = document.createElement("option");
    option.value = value;
    if (usage !== "" && usage !== value) option.label = usage;
    return option;
  });
};

/** Reads a card's speech aloud in the player's language, when the browser can speak. */
export const speak = (text: PanelText, speech: SpeechContent): void => {
  const synth = globalThis.speechSynthesis;
  if (synth === undefined || typeof SpeechSynthesisUtterance === "undefined") return;
  const utterance = new SpeechSynthesisUtterance(text.text(speech.text));
  utterance.lang = text.speechLanguage();
  const voice = synth.getVoices().find((candidate) => candidate.name === speech.voice);
  if (voice !== undefined) utterance.voice = voice;
  if (speech.interrupt === true) synth.cancel();
  synth.speak(utterance);
};

const SPEECH_KEY = "system-panel-speech";

/** The speech switch is the browser's own setting (localStorage), not the player's preference on the server. */
export const speechEnabled = (): boolean => {
  try {
    return globalThis.localStorage?.getItem(SPEECH_KEY) === "on";
  } catch {
    return false; // storage disabled by the browser
  }
};

export const setSpeechEnabled = (enabled: boolean): void => {
  try {
    globalThis.localStorage?.setItem(SPEECH_KEY, enabled ? "on" : "off");
  } catch {
    // storage disabled or full: the switch lasts for this page only
  }
  if (!enabled) globalThis.speechSynthesis?.cancel();
};
