// Generated knowledge entries for the knowledge benches: a seeded, skewed (Zipf-like) vocabulary of 4,000
// English and 4,000 Chinese words, with real guide terms (the queries' words) in about one word of a hundred.

/** Topic words the queries use; each appears in a few percent of entries, like real guide terms. */
export const TOPICS_EN =
  "diamond iron gold netherite redstone emerald villager trade enchant anvil beacon portal nether end dragon elytra shulker spawner farm wheat potion brewing furnace smelt pickaxe sword armor shield trident quest reward shop rule spawn base".split(
    " ",
  );
export const TOPICS_ZH =
  "钻石 铁锭 金锭 下界合金 红石 绿宝石 村民 交易 附魔 铁砧 信标 传送门 下界 末地 末影龙 鞘翅 潜影盒 刷怪笼 农场 小麦 药水 酿造 熔炉 冶炼 镐 剑 盔甲 盾牌 三叉戟 任务 奖励 商店 规则 出生点 基地".split(
    " ",
  );
const SYLLABLES = "ka ro mi tu le sa no ve di pa shi gro bel tan fir quo mun zed ark lin".split(" ");

/** A generator of entry titles and bodies; the same seed gives the same entries. */
export interface KnowledgeCorpus {
  /** A title with one English and one Chinese topic word and the entry's number. */
  title(index: number): string;
  /** 60 words of one language. */
  body(): string;
}

export const knowledgeCorpus = (initialSeed: number): KnowledgeCorpus => {
  let seed = initialSeed;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const englishWord = (): string =>
    Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(SYLLABLES)).join("");
  const chineseWord = (): string =>
    Array.from({ length: 2 + Math.floor(random() * 2) }, () =>
      String.fromCodePoint(0x4e00 + 200 + Math.floor(random() * 1500)),
    ).join("");
  const vocabularyEn = Array.from({ length: 4_000 }, englishWord);
  const vocabularyZh = Array.from({ length: 4_000 }, chineseWord);
  const skewed = (vocabulary: readonly string[]): string =>
    vocabulary[Math.floor(random() ** 2.5 * vocabulary.length)] as string;
  return {
    title: (index) => `${pick(TOPICS_EN)} ${pick(TOPICS_ZH)} ${index}`,
    body: () => {
      const chinese = random() < 0.5;
      const words: string[] = [];
      for (let index = 0; index < 60; index++)
        words.push(
          random() < 0.01
            ? pick(chinese ? TOPICS_ZH : TOPICS_EN)
            : skewed(chinese ? vocabularyZh : vocabularyEn),
        );
      return chinese ? words.join("") : words.join(" ");
    },
  };
};

/** The value at `fraction` (0.5 for the median) of the sorted values; 0 for none. */
export const percentile = (values: readonly number[], fraction: number): number => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
};
