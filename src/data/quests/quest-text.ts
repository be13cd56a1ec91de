/**
 * Quest text as chat shows it: FTB Quests markup removed. Handles `&`/`§` formatting codes, `&#RRGGBB` colours,
 * the escaped `\&` (a literal ampersand), `{@pagebreak}`, `{image:…}` lines, and description lines that are JSON
 * text components (`{"text": …}` or `["", …]`), whose visible text is kept. Quest text is untrusted data: this
 * only shapes it for display.
 */
export const plainQuestText = (raw: string): string => {
  const trimmed = raw.trim();
  if (
    (trimmed.startsWith("{") || trimmed.startsWith("[")) &&
    !trimmed.startsWith("{@") &&
    !trimmed.startsWith("{image:")
  ) {
    const component = componentText(trimmed);
    if (component !== undefined) return stripCodes(component);
  }
  return stripCodes(raw.replace(/\{@pagebreak\}/gi, "").replace(/\{image:[^}]*\}/gi, ""));
};

/** Description lines to chat lines: markup removed, image-only and page-break lines dropped, blank runs folded. */
export const plainQuestLines = (lines: readonly string[]): string[] => {
  const result: string[] = [];
  for (const line of lines) {
    const marker = line.trim();
    if (/^\{@pagebreak\}$/i.test(marker) || /^\{image:[^}]*\}$/i.test(marker)) continue;
    const text = plainQuestText(line).trimEnd();
    if (text.length === 0 && (result.length === 0 || result.at(-1) === "")) continue;
    result.push(text);
  }
  while (result.at(-1) === "") result.pop();
  return result;
};

const ESCAPED_AMPERSAND = "\u0000";

const stripCodes = (text: string): string =>
  text
    .replace(/\\&/g, ESCAPED_AMPERSAND)
    .replace(/[&§]#[0-9a-fA-F]{6}/g, "")
    .replace(/[&§][0-9a-fk-orA-FK-OR]/g, "")
    .replaceAll(ESCAPED_AMPERSAND, "&");

/** The visible text of a JSON text component; undefined when the line is not one. */
const componentText = (line: string): string | undefined => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  const visit = (node: unknown): string => {
    if (typeof node === "string") return node;
    if (Array.isArray(node)) return node.map(visit).join("");
    if (node !== null && typeof node === "object") {
      const record = node as Record<string, unknown>;
      const own =
        typeof record.text === "string"
          ? record.text
          : typeof record.translate === "string"
            ? typeof record.fallback === "string"
              ? record.fallback
              : record.translate
            : "";
      return own + (Array.isArray(record.extra) ? record.extra.map(visit).join("") : "");
    }
    return "";
  };
  return typeof parsed === "object" && parsed !== null ? visit(parsed) : undefined;
};
