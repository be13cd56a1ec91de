import type { EmbeddingProvider } from "./embedding-provider.js";
import type { IndexEntry, TargetScore } from "./semantic-index.js";
import type { SimilaritySearch } from "./semantic-router.js";

const BATCH = 64;

const normalize = (vector: readonly number[]): Float64Array => {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return Float64Array.from(vector, (value) => value / norm);
};

/**
 * Similarity from an embedding model instead of local TF-IDF vectors: samples are embedded once at start, each
 * query once per request. Coverage still comes from the local index (the router merges it).
 */
export class EmbeddingIndex implements SimilaritySearch {
  private constructor(
    private readonly provider: EmbeddingProvider,
    private readonly samples: readonly {
      readonly entry: IndexEntry;
      readonly text: string;
      readonly vector: Float64Array;
    }[],
  ) {}

  static async build(entries: readonly IndexEntry[], provider: EmbeddingProvider): Promise<EmbeddingIndex> {
    const flat = entries.flatMap((entry) => entry.samples.map((text) => ({ entry, text })));
    const samples: { entry: IndexEntry; text: string; vector: Float64Array }[] = [];
    for (let start = 0; start < flat.length; start += BATCH) {
      const batch = flat.slice(start, start + BATCH);
      const vectors = await provider.embed(batch.map((sample) => sample.text));
      for (const [index, sample] of batch.entries())
        samples.push({ entry: sample.entry, text: sample.text, vector: normalize(vectors[index]!) });
    }
    return new EmbeddingIndex(provider, samples);
  }

  async search(text: string, limit = 5): Promise<TargetScore[]> {
    const [raw] = await this.provider.embed([text]);
    const query = normalize(raw ?? []);
    const best = new Map<IndexEntry, { score: number; text: string }>();
    for (const { entry, vector, text: sample } of this.samples) {
      let score = 0;
      for (let index = 0; index < Math.min(query.length, vector.length); index++)
        score += query[index]! * vector[index]!;
      if (score > (best.get(entry)?.score ?? -1)) best.set(entry, { score, text: sample });
    }
    return [...best]
      .sort((left, right) => right[1].score - left[1].score)
      .slice(0, limit)
      .map(([entry, { score, text: sample }]) => ({
        target: entry.target,
        reject: entry.reject,
        similarity: Math.max(0, Math.min(1, score)),
        coverage: 0,
        sample,
      }));
  }
}
