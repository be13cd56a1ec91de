import type { ChatComponent } from "./chat-component.js";

/** One clickable button of a card; clicking runs `/system card <ref> <action>` as the player. */
export interface CardButtonView {
  readonly label: string;
  readonly ref: string;
  readonly action: string;
  readonly hover?: string;
}

/** A card already localized for one player: what the host needs to draw it in chat. */
export interface CardView {
  readonly title: string;
  readonly lines: readonly string[];
  readonly buttons: readonly CardButtonView[];
  /** Hover text of the title (for example the request id or the workflow name). */
  readonly titleHover?: string;
}

/** The command a card button runs; card refs and actions are single words, so no quoting is needed. */
export const cardButtonCommand = (ref: string, action: string): string => `/system card ${ref} ${action}`;

const button = (view: CardButtonView): ChatComponent => ({
  text: `[${view.label}]`,
  color: "aqua",
  underlined: false,
  clickEvent: { action: "run_command", value: cardButtonCommand(view.ref, view.action) },
  hoverText: { text: view.hover ?? cardButtonCommand(view.ref, view.action), color: "gray" },
});

/** Renders a card as one chat message: a gold title, its lines, then a row of buttons. */
export const cardComponent = (card: CardView): ChatComponent => {
  const extra: ChatComponent[] = [
    {
      text: card.title,
      color: "gold",
      bold: true,
      ...(card.titleHover === undefined ? {} : { hoverText: { text: card.titleHover, color: "gray" } }),
    },
  ];
  // the body is one text node: a node per line would cost the client and the packet encoder per node
  if (card.lines.length > 0) extra.push({ text: `\n${card.lines.join("\n")}`, color: "white" });
  if (card.buttons.length > 0) {
    extra.push({ text: "\n" });
    card.buttons.forEach((view, index) => {
      if (index > 0) extra.push({ text: " " });
      extra.push(button(view));
    });
  }
  return { text: "", extra };
};
