/** Elements whose content is never page text (code, styling, navigation chrome, embedded media). */
const DROPPED = [
  "script",
  "style",
  "noscript",
  "nav",
  "header",
  "footer",
  "aside",
  "svg",
  "iframe",
  "template",
  "form",
];

const NAMED: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  copy: "©",
  reg: "®",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  middot: "·",
  times: "×",
};

/** Decodes HTML character references (named, decimal, hex); unknown names stay as written. */
export const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z][a-z0-9]{1,31});/gi, (whole, reference: string) => {
    if (reference.startsWith("#")) {
      const code =
        reference[1] === "x" || reference[1] === "X"
          ? Number.parseInt(reference.slice(2), 16)
          : Number.parseInt(reference.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
        ? String.fromCodePoint(code)
        : "";
    }
    return NAMED[reference.toLowerCase()] ?? whole;
  });

/** The readable text and title of an HTML page: chrome and scripts dropped, tags removed, entities decoded. */
export const htmlToText = (html: string): { title: string; text: string } => {
  const titleMatch = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  let body = html.replace(/<!--[\s\S]*?-->/g, " ");
  for (const tag of DROPPED) body = body.replace(new RegExp(`<${tag}\\b[\\s\\S]*?</${tag}\\s*>`, "gi"), " ");
  body = body.replace(/<head\b[\s\S]*?<\/head\s*>/gi, " ");
  body = body.replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/tr)\b[^>]*>/gi, "\n");
  body = body.replace(/<[^>]*>/g, " ");
  const text = decodeEntities(body)
    .split("\n")
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, " ").trim())
    .filter((line) => line.length > 0)
    .join("\n");
  return { title: decodeEntities((titleMatch?.[1] ?? "").replace(/\s+/g, " ").trim()), text };
};

/** Trims text to at most `limit` characters at a word or sentence boundary when one is near, marking the cut. */
export const trimSummary = (text: string, limit: number): string => {
  const flat = text.trim();
  if (flat.length <= limit) return flat;
  const cut = flat.slice(0, limit);
  const boundary = Math.max(
    cut.lastIndexOf(" "),
    cut.lastIndexOf("。"),
    cut.lastIndexOf(". "),
    cut.lastIndexOf("\n"),
  );
  return `${(boundary > limit * 0.6 ? cut.slice(0, boundary) : cut).trimEnd()}…`;
};
