/**
 * The first JSON object in a model reply: the whole text, a fenced block, or the outermost braces. Replies
 * are data; anything that is not one object is undefined.
 */
export const parseReplyObject = (text: string): Record<string, unknown> | undefined => {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed)?.[1];
  const start = trimmed.indexOf("{");
  const end = trimmed.lastIndexOf("}");
  for (const candidate of [
    trimmed,
    fenced,
    start >= 0 && end > start ? trimmed.slice(start, end + 1) : undefined,
  ]) {
    if (candidate === undefined) continue;
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {
      // try the next form
    }
  }
  return undefined;
};
