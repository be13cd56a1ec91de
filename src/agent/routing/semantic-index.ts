import { type SlotRecognizer, TextAnalyzer } from "./text-analyzer.js";

/** A set of samples for one target: a module, or a reject class (which never routes anywhere). */
export interface IndexEntry {
  readonly target: string;
  readonly reject: boolean;
  readonly samples: readonly string[];
}

/** The similarity of a query to one target: cosine to its closest sample (0..1; not a probability). */
export interface TargetScore {
  readonly target: string;
  readonly reject: boolean;
  readonly similarity: number;
  /** Share of the query's words found in the target's samples (0..1). */
  readonly coverage: number;
  /** The query's words none of the target's samples has (normalised: `<item>`, stems). */
  readonly uncovered?: readonly string[];
  /** The query's words the target's samples have. */
  readonly covered?: readonly string[];
  /** The closest sample, as registered. */
  readonly sample: string;
}

const CJK_WORD = /^[\u3400-\u9fff\uf900-\ufaff]+$/;

/** How many of the best targets are also scored against their centroid. */
const CENTROID_TARGETS = 8;

interface Posting {
  readonly samples: number[];
  readonly weights: number[];
}

/**
 * A local TF-IDF cosine index with an inverted file: a query scores only the samples that share a selective
 * feature with it, so its cost follows those postings (bounded by ~4·√n each), not the number of samples.
 */
export class SemanticIndex {
  readonly #analyzer: TextAnalyzer;
  readonly #postings = new Map<string, Posting>();
  readonly #idf = new Map<string, number>();
  readonly #sampleTarget: number[] = [];
  readonly #sampleText: string[] = [];
  readonly #targets: IndexEntry[] = [];
  readonly #vocabulary: Set<string>[] = [];
  /** Per target: its samples' normalised text, for Chinese words the segmenter cut differently. */
  readonly #texts: string[] = [];
  readonly #vectors: Map<string, number>[] = [];
  /** Per target: the normalised sum of its sample vectors (what the target's samples say together). */
  readonly #centroids: Map<string, number>[] = [];
  /** Postings longer than this only add candidates when no more selective feature matched. */
  readonly #selective: number;
  /** The weight of a word no sample has: half the rarest idf, so it dilutes a match without drowning it. */
  #unseenIdf = 1;
  #accumulator = new Float64Array(0);

  /** `slots` marks argument mentions (item names) in samples and queries alike. */
  constructor(entries: readonly IndexEntry[], slots?: SlotRecognizer) {
    this.#analyzer = new TextAnalyzer(slots);
    const analysed: { target: number; features: readonly string[] }[] = [];
    for (const entry of entries) {
      const target = this.#targets.push(entry) - 1;
      const vocabulary = new Set<string>();
      this.#vocabulary.push(vocabulary);
      this.#texts.push(entry.samples.map((sample) => this.#analyzer.normalize(sample)).join("\n"));
      for (const sample of entry.samples) {
        const { words, features } = this.#analyzer.learn(sample);
        for (const word of words) vocabulary.add(word);
        analysed.push({ target, features });
        this.#sampleText.push(sample);
      }
    }
    const targetSets = new Map<string, Set<number>>();
    for (const { target, features } of analysed)
      for (const feature of features) {
        let set = targetSets.get(feature);
        if (set === undefined) {
          set = new Set();
          targetSets.set(feature, set);
        }
        set.add(target);
      }
    const count = analysed.length;
    const targets = Math.max(1, this.#targets.length);
    for (const [feature, set] of targetSets) this.#idf.set(feature, Math.log(1 + targets / set.size));
    this.#unseenIdf = Math.log(1 + targets) / 2;
    analysed.forEach(({ target, features }, sample) => {
      this.#sampleTarget.push(target);
      const vector = this.#vector(features);
      this.#vectors.push(vector);
      for (const [feature, weight] of vector) {
        const posting = this.#postings.get(feature);
        if (posting === undefined) this.#postings.set(feature, { samples: [sample], weights: [weight] });
        else {
          posting.samples.push(sample);
          posting.weights.push(weight);
        }
      }
    });
    this.#buildCentroids();
    this.#accumulator = new Float64Array(count);
    this.#selective = Math.max(128, Math.ceil(4 * Math.sqrt(count)));
  }

  get size(): number {
    return this.#sampleTarget.length;
  }

  /**
   * Targets by similarity, best first (at most `limit`). Candidates come from the postings of the query's
   * selective features (document frequency within `#selective`, or the rarest one when none is); each candidate
   * is then scored exactly against its whole vector. A sample that shares only very common features with the
   * query is not scored: its cosine is bounded by those features' small idf weights.
   */
  search(text: string, limit = 5): TargetScore[] {
    const query = this.#analyzer.analyze(text);
    const terms: { posting: Posting; weight: number; feature: string }[] = [];
    const queryVector = this.#vector(query.features);
    for (const [feature, weight] of queryVector) {
      const posting = this.#postings.get(feature);
      if (posting !== undefined) terms.push({ posting, weight, feature });
    }
    terms.sort((left, right) => left.posting.samples.length - right.posting.samples.length);
    const scores = this.#accumulator;
    const candidates: number[] = [];
    let selective = 0;
    for (const { posting, weight } of terms) {
      if (candidates.length > 0 && posting.samples.length > this.#selective) break;
      selective++;
      const { samples, weights } = posting;
      for (let index = 0; index < samples.length; index++) {
        const sample = samples[index]!;
        if (scores[sample] === 0) candidates.push(sample);
        scores[sample] = scores[sample]! + weight * weights[index]!;
      }
    }
    // Common features only add to samples already found, through each sample's own vector.
    for (let term = selective; term < terms.length; term++) {
      const { feature, weight } = terms[term]!;
      for (const sample of candidates)
        scores[sample] = scores[sample]! + weight * (this.#vectors[sample]!.get(feature) ?? 0);
    }
    const best = new Map<number, { score: number; sample: number }>();
    for (const sample of candidates) {
      const score = scores[sample]!;
      scores[sample] = 0;
      const target = this.#sampleTarget[sample]!;
      if (score > (best.get(target)?.score ?? 0)) best.set(target, { score, sample });
    }
    // A target's samples together can match a query none of them matches alone ("我的坐标是多少"). Only the
    // targets already found are re-scored against their centroids, so the cost does not grow with the index.
    const found = [...best].sort((left, right) => right[1].score - left[1].score).slice(0, CENTROID_TARGETS);
    for (const [target, entry] of found) {
      const centroid = this.#centroids[target]!;
      let score = 0;
      for (const [feature, weight] of queryVector) score += weight * (centroid.get(feature) ?? 0);
      if (score > entry.score) entry.score = score;
    }
    return [...best]
      .sort((left, right) => right[1].score - left[1].score)
      .slice(0, limit)
      .map(([target, { score, sample }]) => {
        const entry = this.#targets[target]!;
        const covered = query.words.filter((word) => this.#covers(target, word));
        return {
          target: entry.target,
          reject: entry.reject,
          similarity: Math.min(1, score),
          coverage: query.words.length === 0 ? 0 : covered.length / query.words.length,
          uncovered: query.words.filter((word) => !covered.includes(word)),
          covered,
          sample: this.#sampleText[sample]!,
        };
      });
  }

  #buildCentroids(): void {
    const sums = this.#targets.map(() => new Map<string, number>());
    this.#vectors.forEach((vector, sample) => {
      const sum = sums[this.#sampleTarget[sample]!]!;
      for (const [feature, weight] of vector) sum.set(feature, (sum.get(feature) ?? 0) + weight);
    });
    for (const sum of sums) {
      let norm = 0;
      for (const weight of sum.values()) norm += weight * weight;
      norm = Math.sqrt(norm);
      if (norm > 0) for (const [feature, weight] of sum) sum.set(feature, weight / norm);
      this.#centroids.push(sum);
    }
  }

  /**
   * Whether a target's samples have a query word: one of their words, or for a Chinese word of two or more
   * characters a part of their text (the lexicon may cut 我还剩 as 我还|剩 where a sample has 我还有).
   */
  #covers(target: number, word: string): boolean {
    if (this.#vocabulary[target]!.has(word)) return true;
    return word.length > 1 && CJK_WORD.test(word) && this.#texts[target]!.includes(word);
  }

  /** L2-normalised log-tf × idf; words unseen in the samples get `#unseenIdf` (they dilute the match). */
  #vector(features: readonly string[]): Map<string, number> {
    const counts = new Map<string, number>();
    for (const feature of features) {
      // An n-gram no sample has says nothing about any target; unseen words still dilute (and cut coverage).
      if (feature.startsWith("~") && !this.#idf.has(feature)) continue;
      counts.set(feature, (counts.get(feature) ?? 0) + 1);
    }
    const vector = new Map<string, number>();
    let norm = 0;
    for (const [feature, count] of counts) {
      const weight = (1 + Math.log(count)) * (this.#idf.get(feature) ?? this.#unseenIdf);
      vector.set(feature, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (const [feature, weight] of vector) vector.set(feature, weight / norm);
    return vector;
  }
}
