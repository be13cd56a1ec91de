/** Reads a module input from this request's text; undefined when the text does not carry the arguments. */
export type ProfileExtractor<I> = (text: string) => I | undefined;

/**
 * Semantic samples of a module (zh_cn and en_us). `read` asks for local direct routing: the registry still
 * requires a read-only interactive module and the thresholds. `hints` only helps the model, margins and
 * fallback candidates; it never executes anything by itself.
 */
export class RoutingProfile<I> {
  private constructor(
    readonly kind: "read" | "hints",
    readonly zh: readonly string[],
    readonly en: readonly string[],
    readonly extractor: ProfileExtractor<I> | undefined,
    /** What a text must name to be about this module at all (a pattern tested on NFKC, lower-case text). */
    readonly topic?: RegExp | ((text: string) => boolean),
    /** A looser reading of the input, for fallback choice buttons only (see `guessing`). */
    readonly guess?: ProfileExtractor<I>,
  ) {
    if (zh.length + en.length === 0) throw new Error("a routing profile needs at least one sample");
  }

  /** A local direct-route request whose extractor parses the input from the player's text. */
  static read<I>(
    extractor: ProfileExtractor<I>,
    zh: readonly string[],
    en: readonly string[],
  ): RoutingProfile<I> {
    return new RoutingProfile("read", [...zh], [...en], extractor);
  }

  /** Samples that describe a module (or a reject class) without asking for direct routing. */
  static hints<I = never>(zh: readonly string[], en: readonly string[]): RoutingProfile<I> {
    return new RoutingProfile<I>("hints", [...zh], [...en], undefined);
  }

  /**
   * Hints whose arguments this extractor reads from the player's text: when the module is the confident local
   * match but may not run without a model (it writes), the fallback card offers it as a button with these
   * arguments filled. The click is the player's consent; nothing runs before it.
   */
  offering(extractor: ProfileExtractor<I>): RoutingProfile<I> {
    if (this.kind !== "hints") throw new Error("only hints offer their module as a button");
    return new RoutingProfile(this.kind, this.zh, this.en, extractor, this.topic, this.guess);
  }

  /**
   * The same profile with a topic: a text without these words (积分/points for a balance), or that the predicate
   * refuses (no quest named), is not this module's, so local routing drops it from the candidates before anything
   * else: generic words it shares with a text ("what", "assistant") neither make it win nor keep another module from
   * winning; nor is it offered in fallback cards. A pattern sees NFKC, lower-case text; a predicate the text as typed.
   */
  about(topic: RegExp | ((text: string) => boolean)): RoutingProfile<I> {
    return new RoutingProfile(this.kind, this.zh, this.en, this.extractor, topic, this.guess);
  }

  /**
   * A looser reading of the input than the extractor's, used only for the buttons of a fallback card when the
   * extractor finds nothing ("where do I get steel" → a button for Steel Ingot): a guess is offered for the
   * player to pick, never routed to or run without their click.
   */
  guessing(guess: ProfileExtractor<I>): RoutingProfile<I> {
    return new RoutingProfile(this.kind, this.zh, this.en, this.extractor, this.topic, guess);
  }

  /** Whether a text may be about this module: it has the topic's words, or the profile declares no topic. */
  onTopic(text: string): boolean {
    if (this.topic === undefined) return true;
    if (typeof this.topic === "function") return this.topic(text);
    this.topic.lastIndex = 0;
    return this.topic.test(text.normalize("NFKC").toLowerCase());
  }

  /** Every sample, both languages. */
  samples(): string[] {
    return [...this.zh, ...this.en];
  }
}
