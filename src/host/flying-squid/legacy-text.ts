import type { ChatComponent } from "../shared/chat-component.js";

const COLORS: Readonly<Record<string, string>> = {
  "0": "black",
  "1": "dark_blue",
  "2": "dark_green",
  "3": "dark_aqua",
  "4": "dark_red",
  "5": "dark_purple",
  "6": "gold",
  "7": "gray",
  "8": "dark_gray",
  "9": "blue",
  a: "green",
  b: "aqua",
  c: "red",
  d: "light_purple",
  e: "yellow",
  f: "white",
};

/**
 * The embedded game server's own messages ("&cCommand not found", "&eAlex joined the game.") written with `&`
 * colour codes, as a component the client shows in colour. Only for the game server's own text: player text
 * is never passed through here.
 */
export const legacyComponent = (text: string): ChatComponent => {
  const extra: ChatComponent[] = [];
  let style: { color?: string; bold?: boolean; italic?: boolean; underlined?: boolean } = {};
  const parts = text.split(/&([0-9a-fk-or])/i);
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] ?? "";
    if (index % 2 === 1) {
      const code = part.toLowerCase();
      const color = COLORS[code];
      if (color !== undefined) style = { color };
      else if (code === "l") style = { ...style, bold: true };
      else if (code === "o") style = { ...style, italic: true };
      else if (code === "n") style = { ...style, underlined: true };
      else if (code === "r") style = {};
      continue;
    }
    if (part !== "") extra.push({ text: part, ...style });
  }
  return { text: "", extra };
};
