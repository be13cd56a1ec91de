/** Why a text may not be routed directly even when it looks like a sample. */
export type GuardHit = "negation" | "multi_intent" | "capability_question";

const ZH_NEGATION = new Set(["不要", "别", "不用", "不必", "甭", "勿", "别再", "不想", "无需", "不需要"]);
const ZH_MULTI = new Set(["然后", "接着", "之后", "并且", "同时", "顺便", "再帮我", "以及"]);
/**
 * 还有 joins a second request only after a first clause ("主城在哪，还有铁锭怎么做"); "我还有多少积分" and
 * "还有哪些任务" are one.
 */
const ZH_ALSO = /[，,。;；、\s]还有/;
const EN_NEGATION = /\b(don'?t|do not|never|no need|stop|not)\b/;
const EN_MULTI =
  /\b(and then|then|after that|afterwards|also|as well as)\b|;|\b(and|or|but|plus)\s+(how|what|where|who|when|why|which|show|tell|check|look|give|craft|make|can|could|do|does|is|are|list|find|get)\b/;
const EN_CAPABILITY =
  /^(can|could|do|does|will|would|are|is) (you|u|ya|system|it)\b|\b(are you able|what can you|how do i use|is it possible)\b/;
const ZH_CAPABILITY =
  /^(你|您|系统)?(能|会|可以|能不能|会不会|可不可以|能否|是否能|有没有办法).*(吗|(?<![什怎这那多])么|嘛|不)$|(有什么功能|能做什么|会做什么|怎么用|如何使用)/;
const ZH_TRIGGER = /[不别甭勿无然接之并同顺再还以]/;

/**
 * Statement guards: negation (不要/别/don't), several intents in one line (然后/and then) and questions about a
 * capability rather than using it (你能…吗 / can you…). Chinese words are checked with `Intl.Segmenter`, so
 * 区别 or 特别 never count as 别; the segmenter only runs when a trigger character is present.
 */
export class StatementGuard {
  readonly #segmenter = new Intl.Segmenter("zh", { granularity: "word" });

  check(text: string): GuardHit[] {
    const normalized = text.normalize("NFKC").toLowerCase().trim();
    const bare = normalized.replace(/[?？!！。.,，\s]+$/u, "");
    const hits = new Set<GuardHit>();
    if (EN_NEGATION.test(normalized)) hits.add("negation");
    if (EN_MULTI.test(normalized)) hits.add("multi_intent");
    if (EN_CAPABILITY.test(bare) || ZH_CAPABILITY.test(bare)) hits.add("capability_question");
    if (ZH_TRIGGER.test(normalized)) {
      for (const segment of this.#segmenter.segment(normalized)) {
        if (!segment.isWordLike) continue;
        if (ZH_NEGATION.has(segment.segment)) hits.add("negation");
        if (ZH_MULTI.has(segment.segment)) hits.add("multi_intent");
      }
      if (/(不要|不用|别再)/.test(normalized)) hits.add("negation");
      if (ZH_ALSO.test(normalized)) hits.add("multi_intent");
    }
    return [...hits];
  }
}
