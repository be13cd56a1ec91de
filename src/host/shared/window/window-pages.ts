import type { Dialog, DialogAction, DialogBody, DialogButton, DialogPayload } from "../dialog.js";

/**
 * The assistant window's pages as dialogs: the launcher, a card as a result page (or a confirmation when the card
 * asks to confirm a payment), history, an entry of it, and settings. The window is another surface for the same
 * cards as chat and the panel: a page shows a card's title, lines and buttons, and a button sends its click back
 * as `system:card` with the card's page and the button's position, which the host runs as the chat button would.
 * Every click names the window it came from (`window`), so a click on a replaced window is told apart.
 */

/** Click ids of System's window (all `system:*`: the gateway consumes them, never relays them). */
export const WINDOW_CLICKS = {
  open: "system:open",
  ask: "system:ask",
  card: "system:card",
  page: "system:page",
  entry: "system:history_entry",
  settings: "system:settings",
} as const;

/** The pages a `system:page` click opens. */
export const WINDOW_PAGES = ["launcher", "history", "settings", "quests", "help"] as const;
export type WindowPage = (typeof WINDOW_PAGES)[number];

/** Translates a window key (`system.window.*`) for the player; arguments are data, never concatenated. */
export type WindowText = (key: string, ...args: string[]) => string;

/** A card as the window shows it (the presented card's localized title, lines and buttons). */
export interface WindowCard {
  readonly title: string;
  readonly lines: readonly string[];
  readonly buttons: readonly { readonly label: string; readonly ref: string; readonly action: string }[];
  /** The buttons' translation keys, in order (a confirm/cancel pair is drawn as a confirmation). */
  readonly buttonKeys: readonly string[];
  readonly failed: boolean;
}

/** Characters the launcher's box takes (the request limits of chat apply after). */
export const WINDOW_INPUT_LENGTH = 2000;
/** Items drawn with their icon above a card's text, at most. */
const MAX_ITEM_BODIES = 4;
/** A namespaced id in card text (`minecraft:diamond`). */
const ITEM_ID = /\b[a-z0-9_.-]+:[a-z0-9_/.-]+\b/gu;
const WIDE = 300;

const page = (window: number, name: WindowPage): DialogAction => ({
  type: "custom",
  id: WINDOW_CLICKS.page,
  payload: { window: String(window), page: name },
});

/** The launcher: the request box, the player's execution mode (when they may choose), Send and the pages. */
export const launcherDialog = (options: {
  readonly text: WindowText;
  /** Undefined for the launcher registered with the client (quick actions, pause menu): it names no window. */
  readonly window?: number;
  /** The modes the player may choose and theirs; omitted when there is no choice. */
  readonly modes?: { readonly allowed: readonly string[]; readonly current: string };
  readonly quests: boolean;
  /** A line above the box (the last answer's title, an error). */
  readonly note?: string;
}): Dialog => {
  const { text } = options;
  const window: DialogPayload = options.window === undefined ? {} : { window: String(options.window) };
  const pageButton = (label: string, name: WindowPage): DialogButton => ({
    label: text(label),
    action: { type: "custom", id: WINDOW_CLICKS.page, payload: { ...window, page: name } },
  });
  const modes = options.modes;
  return {
    type: "multi_action",
    title: { text: text("system.window.title"), color: "gold" },
    externalTitle: text("system.window.open"),
    pause: false,
    afterAction: "wait_for_response",
    body: [
      { type: "plain_message", contents: options.note ?? text("system.window.launcher.hint"), width: WIDE },
    ],
    inputs: [
      {
        type: "text",
        key: "text",
        label: text("system.window.launcher.input"),
        width: WIDE,
        maxLength: WINDOW_INPUT_LENGTH,
        multiline: { maxLines: 8, height: 96 },
      },
      ...(modes === undefined || modes.allowed.length < 2
        ? []
        : [
            {
              type: "single_option" as const,
              key: "mode",
              label: text("system.window.launcher.mode"),
              width: WIDE,
              options: modes.allowed.map((mode) => ({ id: mode, initial: mode === modes.current })),
            },
          ]),
    ],
    actions: [
      {
        label: { text: text("system.window.send"), color: "green" },
        action: { type: "dynamic/custom", id: WINDOW_CLICKS.ask, additions: window },
      },
      pageButton("system.window.history", "history"),
      pageButton("system.window.settings", "settings"),
      ...(options.quests ? [pageButton("system.window.quests", "quests")] : []),
      pageButton("system.window.help", "help"),
    ],
    exitAction: { label: text("system.window.close") },
    columns: 2,
  };
};

/** The items a card names (`ID: minecraft:diamond`) that the client knows, drawn with their icon. */
const itemBodies = (card: WindowCard, isItem: (id: string) => boolean): DialogBody[] => {
  const found = new Set<string>();
  for (const line of [card.title, ...card.lines])
    for (const match of line.matchAll(ITEM_ID)) if (isItem(match[0])) found.add(match[0]);
  return [...found].slice(0, MAX_ITEM_BODIES).map((item) => ({ type: "item", item, description: item }));
};

/** A payment the card asks to confirm: its two buttons are a `*.confirm` and a `*.cancel`. */
const confirmsPayment = (card: WindowCard): boolean =>
  card.buttonKeys.length === 2 &&
  (card.buttonKeys[0] ?? "").endsWith(".confirm") &&
  (card.buttonKeys[1] ?? "").endsWith(".cancel");

/**
 * A card as a page: its text (with the items it names as icons) and its buttons, each sending the card's click;
 * a payment to confirm is a `confirmation` dialog (its cancel button also answers Escape).
 */
export const cardDialog = (options: {
  readonly text: WindowText;
  readonly window: number;
  readonly card: WindowCard;
  readonly isItem: (id: string) => boolean;
}): Dialog => {
  const { text, window, card } = options;
  const click = (button: WindowCard["buttons"][number]): DialogButton => ({
    label: button.label,
    width: 200,
    action: {
      type: "custom",
      id: WINDOW_CLICKS.card,
      payload: { window: String(window), ref: button.ref, index: button.action },
    },
  });
  const body: DialogBody[] = [
    ...itemBodies(card, options.isItem),
    ...(card.lines.length === 0
      ? []
      : [{ type: "plain_message" as const, contents: card.lines.join("\n"), width: WIDE }]),
  ];
  const common = {
    title: { text: card.title, color: card.failed ? "red" : "gold" },
    pause: false,
    afterAction: "wait_for_response" as const,
    body,
  };
  const [yes, no] = card.buttons;
  if (confirmsPayment(card) && yes !== undefined && no !== undefined)
    return { ...common, type: "confirmation", yes: click(yes), no: click(no) };
  return {
    ...common,
    type: "multi_action",
    actions: [
      ...card.buttons.map(click),
      { label: text("system.window.new_request"), width: 200, action: page(window, "launcher") },
    ],
    exitAction: { label: text("system.window.close") },
    columns: 2,
  };
};

/** One exchange of the player's history: what they typed, and the title of the answer. */
export interface WindowHistoryEntry {
  readonly asked: string;
  readonly answer: string;
}

/** The player's recent exchanges, newest first; each button reopens that answer's card (read only). */
export const historyDialog = (options: {
  readonly text: WindowText;
  readonly window: number;
  readonly entries: readonly WindowHistoryEntry[];
}): Dialog => {
  const { text, window, entries } = options;
  const clip = (line: string): string =>
    [...line].length > 40 ? `${[...line].slice(0, 39).join("")}…` : line;
  return {
    type: "multi_action",
    title: { text: text("system.window.history"), color: "gold" },
    pause: false,
    afterAction: "wait_for_response",
    body: [
      {
        type: "plain_message",
        contents: text(entries.length === 0 ? "system.window.history.empty" : "system.window.history.hint"),
        width: WIDE,
      },
    ],
    actions: [
      ...entries.map((entry, index) => ({
        label: clip(entry.asked),
        tooltip: entry.answer,
        width: 300,
        action: {
          type: "custom" as const,
          id: WINDOW_CLICKS.entry,
          payload: { window: String(window), entry: String(index) },
        },
      })),
      { label: text("system.window.back"), width: 300, action: page(window, "launcher") },
    ],
    exitAction: { label: text("system.window.close") },
    columns: 1,
  };
};

/** An answer from history: its card's text, without buttons (a stored card runs nothing). */
export const historyEntryDialog = (options: {
  readonly text: WindowText;
  readonly window: number;
  readonly asked: string;
  readonly card: Pick<WindowCard, "title" | "lines" | "failed">;
}): Dialog => ({
  type: "multi_action",
  title: { text: options.card.title, color: options.card.failed ? "red" : "gold" },
  pause: false,
  afterAction: "wait_for_response",
  body: [
    { type: "plain_message", contents: { text: options.asked, color: "gray", italic: true }, width: WIDE },
    ...(options.card.lines.length === 0
      ? []
      : [{ type: "plain_message" as const, contents: options.card.lines.join("\n"), width: WIDE }]),
  ],
  actions: [{ label: options.text("system.window.back"), action: page(options.window, "history") }],
  exitAction: { label: options.text("system.window.close") },
  columns: 1,
});

/** The settings a player may change: history, external services, speech (their game sets the language). */
export interface WindowSettings {
  readonly history: boolean;
  readonly external: boolean;
  readonly speech: boolean;
  readonly language: string;
}

/** Settings: a toggle per preference and Save; the language is the game's own, shown as it is. */
export const settingsDialog = (options: {
  readonly text: WindowText;
  readonly window: number;
  readonly settings: WindowSettings;
  /** What the last save changed (the cards' first lines). */
  readonly note?: string;
}): Dialog => {
  const { text, window, settings } = options;
  return {
    type: "multi_action",
    title: { text: text("system.window.settings"), color: "gold" },
    pause: false,
    afterAction: "wait_for_response",
    body: [
      {
        type: "plain_message",
        contents: options.note ?? text("system.window.settings.language", settings.language),
        width: WIDE,
      },
    ],
    inputs: [
      {
        type: "boolean",
        key: "history",
        label: text("system.window.settings.history"),
        initial: settings.history,
      },
      {
        type: "boolean",
        key: "external",
        label: text("system.window.settings.external"),
        initial: settings.external,
      },
      {
        type: "boolean",
        key: "speech",
        label: text("system.window.settings.speech"),
        initial: settings.speech,
      },
    ],
    actions: [
      {
        label: { text: text("system.window.save"), color: "green" },
        action: { type: "dynamic/custom", id: WINDOW_CLICKS.settings, additions: { window: String(window) } },
      },
      { label: text("system.window.back"), action: page(window, "launcher") },
    ],
    exitAction: { label: text("system.window.close") },
    columns: 2,
  };
};
