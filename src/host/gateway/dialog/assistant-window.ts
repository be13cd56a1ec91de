import nbt from "prismarine-nbt";
import { z } from "zod";
import type { AssistantServer } from "../../../assistant/assistant-server.js";
import type { PresentedCard } from "../../../assistant/card-presenter.js";
import { normalizeLocale } from "../../../util/language.js";
import type { Logger } from "../../../util/logger.js";
import type { AssistantHostHandler } from "../../shared/assistant-handler.js";
import type { Dialog } from "../../shared/dialog.js";
import {
  cardDialog,
  launcherDialog,
  WINDOW_CLICKS,
  WINDOW_INPUT_LENGTH,
  WINDOW_PAGES,
  type WindowCard,
  type WindowText,
} from "../../shared/window/window-pages.js";
import type { GatewayHostPlayer } from "../assistant/gateway-host-player.js";
import type { GatewayWindow } from "../gateway-commands.js";
import type { ProxiedPlayer } from "../proxied-player.js";
import { readCustomClick } from "./dialog-packets.js";
import { WindowPages } from "./window-pages-gateway.js";

const WINDOW_ID = z.string().regex(/^\d{1,9}$/u);
const FLAG = z.union([z.literal(0), z.literal(1)]);

/** What each of System's click ids may carry: strict shapes, so a wrong type or an extra field is refused. */
const CLICK_SHAPES = {
  [WINDOW_CLICKS.open]: z.object({}).strict(),
  [WINDOW_CLICKS.ask]: z
    .object({
      window: WINDOW_ID.optional(),
      text: z.string().max(WINDOW_INPUT_LENGTH),
      mode: z.string().max(16).optional(),
    })
    .strict(),
  [WINDOW_CLICKS.card]: z
    .object({ window: WINDOW_ID, ref: z.string().min(1).max(64), index: z.string().regex(/^\d{1,3}$/u) })
    .strict(),
  [WINDOW_CLICKS.page]: z.object({ window: WINDOW_ID.optional(), page: z.enum(WINDOW_PAGES) }).strict(),
  [WINDOW_CLICKS.entry]: z.object({ window: WINDOW_ID, entry: z.string().regex(/^\d{1,2}$/u) }).strict(),
  [WINDOW_CLICKS.settings]: z
    .object({ window: WINDOW_ID, history: FLAG, external: FLAG, speech: FLAG })
    .strict(),
} as const;
type ClickShapes = typeof CLICK_SHAPES;
type Click = { [Id in keyof ClickShapes]: { id: Id; payload: z.infer<ClickShapes[Id]> } }[keyof ClickShapes];

/** What the window of one player shows now: the number of the dialog on screen and the cards it holds. */
export interface WindowState {
  /** Counts the dialogs shown; a click must name the one on screen. */
  window: number;
  /** The card pages the dialog on screen shows (a card click must name one of them). */
  refs: ReadonlySet<string>;
}

/**
 * System's window for 1.21.6+ players at the gateway: the pages (window-pages in src/host/shared) as inline
 * dialogs, and the clicks coming back. A click is read by hand, checked against its id's shape, and honoured only
 * for the dialog on screen (its `window`) and, for a card's button, a card that dialog shows; anything else —
 * oversized, wrong types, another player's card, a replaced window — is ignored with one log line and runs
 * nothing. Requests run through the same host handler as chat (`onWindowRequest`), whose cards also go to chat.
 */
export class AssistantWindow implements GatewayWindow {
  readonly #states = new Map<ProxiedPlayer, WindowState>();
  readonly #pages: WindowPages;

  constructor(
    private readonly assistant: AssistantServer,
    private readonly handler: AssistantHostHandler,
    private readonly players: (proxied: ProxiedPlayer) => GatewayHostPlayer | undefined,
    private readonly logger: Logger,
  ) {
    this.#pages = new WindowPages(assistant, handler);
  }

  /** The launcher registered with the client (quick actions, pause menu): static, so it names no window. */
  launcher(proxied: ProxiedPlayer): Dialog {
    return launcherDialog({
      text: this.#text(proxied.locale),
      quests: this.assistant.isCommand("quests"),
    });
  }

  /** Opens the launcher (`/system` with no text, the chat cards' `[System]` button). */
  open(proxied: ProxiedPlayer, note?: string): void {
    const player = this.players(proxied);
    if (player === undefined) return;
    const { mode, allowed, source } = this.assistant.core.modeOf(player.uuid);
    this.#show(proxied, (window) =>
      launcherDialog({
        text: this.#text(player.locale()),
        window,
        quests: this.assistant.isCommand("quests"),
        ...(source === "admin" ? {} : { modes: { allowed, current: mode } }),
        ...(note === undefined ? {} : { note }),
      }),
    );
  }

  click(proxied: ProxiedPlayer, frame: Buffer): void {
    const who = proxied.username ?? "a player";
    const click = this.#read(frame);
    if (typeof click === "string") {
      this.logger.warn(`window click of ${who} ignored: ${click}`);
      return;
    }
    const player = this.players(proxied);
    if (player === undefined) return;
    const state = this.#states.get(proxied);
    const window = "window" in click.payload ? click.payload.window : undefined;
    const refused =
      window !== undefined && window !== String(state?.window)
        ? `${click.id} from a replaced window`
        : click.id === WINDOW_CLICKS.card && state?.refs.has(click.payload.ref) !== true
          ? "a card this window does not show"
          : undefined;
    if (refused !== undefined) {
      this.logger.warn(`window click of ${who} ignored: ${refused}`);
      return;
    }
    this.#run(proxied, player, click).catch((error: unknown) =>
      this.logger.error(`window click ${click.id} of ${who} failed`, error),
    );
  }

  /** The player left: their window is gone. */
  forget(proxied: ProxiedPlayer): void {
    this.#states.delete(proxied);
  }

  async #run(proxied: ProxiedPlayer, player: GatewayHostPlayer, click: Click): Promise<void> {
    const text = this.#text(player.locale());
    switch (click.id) {
      case WINDOW_CLICKS.open:
        return this.open(proxied);
      case WINDOW_CLICKS.ask: {
        const typed = click.payload.text.trim();
        if (typed === "") return this.open(proxied, text("system.window.empty"));
        const mode = click.payload.mode;
        if (mode !== undefined && mode !== this.assistant.core.modeOf(player.uuid).mode)
          await this.handler.onWindowRequest(player, { text: `/system mode ${mode}` });
        await this.handler.onWindowRequest(player, { text: typed }, (card) => this.#showCard(proxied, card));
        return;
      }
      case WINDOW_CLICKS.card: {
        const { ref, index } = click.payload;
        await this.handler.onWindowRequest(player, { ref, index }, (card) => this.#showCard(proxied, card));
        return;
      }
      case WINDOW_CLICKS.page:
        if (click.payload.page === "launcher") return this.open(proxied);
        if (click.payload.page === "quests" || click.payload.page === "help") {
          const line = click.payload.page === "quests" ? "/system quests" : "/system help";
          await this.handler.onWindowRequest(player, { text: line }, (card) => this.#showCard(proxied, card));
          return;
        }
        return this.#show(proxied, await this.#pages.page(player, click.payload.page));
      case WINDOW_CLICKS.entry:
        return this.#show(proxied, await this.#pages.entry(player, Number(click.payload.entry)));
      case WINDOW_CLICKS.settings: {
        const { history, external, speech } = click.payload;
        const chosen = { history: history === 1, external: external === 1, speech: speech === 1 };
        return this.#show(proxied, await this.#pages.saveSettings(player, chosen));
      }
    }
  }

  /** A card as the next page (the launcher when the result shows nothing). */
  #showCard(proxied: ProxiedPlayer, card: PresentedCard | undefined): void {
    const player = this.players(proxied);
    if (card === undefined || player === undefined) {
      this.open(proxied);
      return;
    }
    const view: WindowCard = {
      title: card.title,
      lines: card.lines,
      buttons: card.buttons,
      buttonKeys: card.view.buttons.map((button) => button.labelKey),
      failed: card.failed,
    };
    this.#show(
      proxied,
      (window) =>
        cardDialog({
          text: this.#text(player.locale()),
          window,
          card: view,
          isItem: (id) => proxied.codec.knowsItem(id),
        }),
      card.buttons.map((button) => button.ref),
    );
  }

  /** Shows the next dialog of the window: it gets the next number, and the cards it holds are recorded. */
  #show(proxied: ProxiedPlayer, dialog: (window: number) => Dialog, refs: readonly string[] = []): void {
    const window = (this.#states.get(proxied)?.window ?? 0) + 1;
    this.#states.set(proxied, { window, refs: new Set(refs) });
    proxied.showDialog(dialog(window));
  }

  /** Reads and checks a click; a string says why it is ignored. */
  #read(frame: Buffer): Click | string {
    const click = readCustomClick(frame);
    if (click === undefined) return `a payload that does not read (${frame.length} bytes)`;
    const shape = CLICK_SHAPES[click.id as keyof ClickShapes] as z.ZodType | undefined;
    if (shape === undefined) return `unknown id ${JSON.stringify(click.id.slice(0, 64))}`;
    const simple: unknown =
      click.payload === undefined
        ? {}
        : click.payload.type === "compound"
          ? nbt.simplify(click.payload)
          : null;
    const parsed = shape.safeParse(simple);
    if (!parsed.success) return `${click.id} with a payload of the wrong shape`;
    return { id: click.id, payload: parsed.data } as Click;
  }

  #text(locale: string | undefined): WindowText {
    const language = normalizeLocale(locale ?? "en_us");
    return (key, ...args) => this.assistant.text(language, key, ...args);
  }
}
