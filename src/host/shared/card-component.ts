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
  /** Each button on a line of its own (a menu such as help) instead of a row. */
  readonly buttonLines?: boolean;
}

/** The command a card button runs; card refs and actions are single words, so no quoting is needed. */
export const cardButtonCommand = (ref: string, action: string): string => `/system card ${ref} ${action}`;

const button = (view: CardButtonView): ChatComponent => ({
  text: `[${view.label}]`,
  color: "aqua",
  underlined: false,
  clickEvent: { action: "run_command", value: cardButtonCommand(view.ref, view.action) },
  // what the button does, never the `/system card …` command behind it
  hoverText: { text: view.hover ?? view.label, color: "gray" },
});

/** An http(s) address in card text, up to a space or a closing bracket or quote. */
const WEB_ADDRESS = /https?:\/\/[^\s"'<>()[\]]{1,256}/gu;

/** Text with its web addresses as links (open_url), the rest white. */
const linked = (text: string): ChatComponent[] => {
  // most cards hold no address: one scan for the scheme instead of the pattern's
  if (!text.includes("http")) return text === "" ? [] : [{ text, color: "white" }];
  const parts: ChatComponent[] = [];
  let from = 0;
  for (const match of text.matchAll(WEB_ADDRESS)) {
    const url = match[0].replace(/[.,;:!?]+$/u, "");
    if (match.index > from) parts.push({ text: text.slice(from, match.index), color: "white" });
    parts.push({
      text: url,
      color: "aqua",
      underlined: true,
      clickEvent: { action: "open_url", value: url },
      hoverText: { text: url, color: "gray" },
    });
    from = match.index + url.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), color: "white" });
  return parts;
};

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
  // the body is one text node (a node per line would cost the client and the packet encoder per node), split
  // only around web addresses, which become links (the client asks the player before it opens one)
  if (card.lines.length > 0) extra.push(...linked(`\n${card.lines.join("\n")}`));
  if (card.buttons.length > 0) {
    extra.push({ text: "\n" });
    card.buttons.forEach((view, index) => {
      if (index > 0) extra.push({ text: card.buttonLines === true ? "\n" : " " });
      extra.push(button(view));
    });
  }
  return { text: "", extra };
};
