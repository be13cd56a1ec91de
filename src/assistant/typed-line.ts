/** What one line a player typed asks of the assistant: a card click, or text for `AssistantServer.submit`. */
export type TypedLine =
  | { readonly kind: "click"; readonly ref: string; readonly index: string }
  | { readonly kind: "text"; readonly text: string };

/** `card <ref> <index>`: a click on a card button, as the chat component sends it after `/system`. */
const CLICK = /^card\s+(\S+)\s+(\S+)$/iu;

/** `card` with fewer words than a click has (`card`, `card nonsense`). */
const BROKEN_CLICK = /^card(?:\s+(\S+))?$/iu;

/** The first word of a line, as typed. */
const headOf = (line: string): string => /^\S*/u.exec(line)?.[0] ?? "";

/**
 * The text after `/system` as game chat reads it: a card click; a known command head, run as an explicit command
 * (so a mistyped argument gets its usage line) and kept with its root as typed (`/system bind`, which is also how
 * history and the web panel show it); anything else is plain text for routing (`/system how do I …`).
 */
export const systemLine = (body: string, isCommand: (head: string) => boolean): TypedLine => {
  const trimmed = body.trim();
  const click = CLICK.exec(trimmed);
  if (click !== null) return { kind: "click", ref: click[1] ?? "", index: click[2] ?? "" };
  // `card nonsense`: a button click gone wrong (typed or pasted), answered as a button that no longer works,
  // never routed as plain text
  const broken = BROKEN_CLICK.exec(trimmed);
  if (broken !== null && !isCommand("card")) return { kind: "click", ref: broken[1] ?? "", index: "" };
  return { kind: "text", text: isCommand(headOf(trimmed).toLowerCase()) ? `/system ${trimmed}` : trimmed };
};

/**
 * A line typed with its slash, as game chat reads it (the web panel's input line): `/system …` as above,
 * `/help` and `/?` are `/system help`, and any other head is an explicit command. An unknown or mistyped command
 * is answered "Unknown command" or with its usage line, never routed to a workflow or a model.
 */
export const slashLine = (typed: string, isCommand: (head: string) => boolean): TypedLine => {
  const line = typed.normalize("NFKC").trim().replace(/^\//u, "");
  const head = headOf(line);
  const rest = line.slice(head.length);
  const base = head.toLowerCase();
  if (base === "system") return systemLine(rest, isCommand);
  if (base === "?") return { kind: "text", text: `/help${rest}` };
  return { kind: "text", text: `/${line}` };
};

/** Whether a typed line is a slash command (full-width `／` included, as game chat reads it). */
export const isSlashLine = (typed: string): boolean => typed.normalize("NFKC").trimStart().startsWith("/");
