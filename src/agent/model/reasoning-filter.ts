/**
 * Removes private reasoning from a model reply: every `<think>…</think>` block, and an unterminated `<think>`
 * (a reply cut off by max_tokens) with everything after it. The result is trimmed; it is never stored with
 * the reasoning.
 */
export const stripReasoning = (text: string): string => {
  const closed = text.replace(/<think(?:\s[^>]*)?>[\s\S]*?<\/think\s*>/gi, "");
  const open = closed.search(/<think(?:\s[^>]*)?>/i);
  const withoutOpen = open >= 0 ? closed.slice(0, open) : closed;
  return withoutOpen.replace(/^[\s\S]*?<\/think\s*>/i, "").trim();
};
