import { describe, expect, it } from "vitest";
import { KnowledgeDatabase } from "./knowledge-database.js";
import { queryTerms } from "./knowledge-terms.js";

// A judged set: each query names the entry a player asking it wants first. Entries that only mention a term in
// passing are added last (newest), so a newest-first LIKE scan puts them on top.
const ENTRIES: readonly { readonly title: string; readonly body: string }[] = [
  {
    title: "钻石",
    body: "钻石矿石通常生成在深板岩层，Y=-59 附近最多。需要铁镐或更好的镐挖掘，时运附魔能增加钻石掉落。",
  },
  { title: "附魔台", body: "附魔台需要书架提升附魔等级，最多十五个书架。附魔消耗经验和青金石。" },
  {
    title: "铁砧",
    body: "铁砧可以修复工具、合并附魔书、重命名物品。铁砧使用多次会损坏。附魔书放在铁砧上与装备合并。",
  },
  { title: "村民交易", body: "村民根据职业提供交易，绿宝石是货币。治愈僵尸村民可以让村民打折。" },
  { title: "下界合金", body: "远古残骸熔炼得到下界合金碎片，四个碎片加四个金锭合成下界合金锭。" },
  { title: "末影龙", body: "末地的末影龙需要先摧毁末影水晶。击败末影龙后才能去末地城找鞘翅。" },
  { title: "鞘翅", body: "鞘翅在末地城的末地船里找到，用幻翼膜修复鞘翅，烟花火箭加速飞行。" },
  { title: "红石", body: "红石粉可以传递信号，红石中继器延迟信号，比较器比较红石信号强度。" },
  { title: "服务器规则", body: "禁止破坏他人建筑，禁止使用外挂。违反规则会被封禁，规则以公告为准。" },
  { title: "药水酿造", body: "酿造台需要烈焰粉作为燃料。地狱疣是大多数药水的基础，药水可以加红石延长时间。" },
  { title: "新手指南", body: "先做木镐，再做石镐、铁镐，然后用铁镐找钻石。镐坏了记得修。" },
  {
    title: "Diamonds",
    body: "Diamonds are found deep underground near Y -59. Mine diamond ore with an iron pickaxe.",
  },
  {
    title: "Anvil",
    body: "An anvil repairs tools, combines enchanted books and renames items. The anvil wears out.",
  },
  {
    title: "XP farm",
    body: "An XP farm collects experience orbs from mobs. Stand on the XP collector to level up.",
  },
  {
    title: "Teleporting",
    body: "Use /tp to teleport to a friend. tp requests expire after a minute; /tp is limited per hour.",
  },
  {
    title: "Villager trading",
    body: "Villager trades use emeralds. Cure a zombie villager so the villager trade prices drop.",
  },
  { title: "商店", body: "出生点附近的商店出售钻石、铁锭和食物，也收红石和药水。" },
  {
    title: "探险日记",
    body: "今天挖到了钻石，还用铁砧修了镐，附魔也不错，村民交易很划算，还看到了鞘翅和末影龙。",
  },
  {
    title: "Daily log",
    body: "Got XP from the shop, asked a villager about trade, used an anvil and took a diamond.",
  },
];

const JUDGED: readonly { readonly query: string; readonly first: string }[] = [
  { query: "钻石", first: "钻石" },
  { query: "钻石怎么挖", first: "钻石" },
  { query: "附魔 铁砧", first: "铁砧" },
  { query: "铁砧", first: "铁砧" },
  { query: "附魔", first: "附魔台" },
  { query: "鞘翅", first: "鞘翅" },
  { query: "红石", first: "红石" },
  { query: "规则", first: "服务器规则" },
  { query: "药水", first: "药水酿造" },
  { query: "村民", first: "村民交易" },
  { query: "镐", first: "新手指南" },
  { query: "下界合金", first: "下界合金" },
  { query: "末影龙 鞘翅", first: "末影龙" },
  { query: "diamond", first: "Diamonds" },
  { query: "xp", first: "XP farm" },
  { query: "anvil", first: "Anvil" },
  { query: "tp", first: "Teleporting" },
  { query: "villager trade", first: "Villager trading" },
];

const seeded = (): KnowledgeDatabase => {
  const database = KnowledgeDatabase.open(":memory:");
  for (const entry of ENTRIES) database.add({ ...entry, source: "file" });
  return database;
};

/** The ranking the previous short-term path produced: every term as a substring, newest first. */
const likeRanking = (query: string): string[] => {
  const terms = queryTerms(query);
  return [...ENTRIES]
    .reverse()
    .filter((entry) => terms.every((term) => `${entry.title}\n${entry.body}`.toLowerCase().includes(term)))
    .map((entry) => entry.title);
};

/** Mean reciprocal rank of the judged entry over the set (0 for a query that misses it). */
const meanReciprocalRank = (rank: (query: string) => string[]): number =>
  JUDGED.reduce((sum, judged) => {
    const at = rank(judged.query).indexOf(judged.first);
    return sum + (at < 0 ? 0 : 1 / (at + 1));
  }, 0) / JUDGED.length;

describe("knowledge ranking on a judged query set", () => {
  it.each(JUDGED)("ranks the judged entry first for $query", ({ query, first }) => {
    const database = seeded();
    const titles = database.search({ query, playerId: undefined, limit: 5 }).map((hit) => hit.entry.title);
    expect(titles[0]).toBe(first);
  });

  it("ranks at least as well as the newest-first LIKE scan it replaces", () => {
    const database = seeded();
    const search = (query: string): string[] =>
      database.search({ query, playerId: undefined, limit: 10 }).map((hit) => hit.entry.title);
    const indexed = meanReciprocalRank(search);
    const scanned = meanReciprocalRank(likeRanking);
    expect(indexed).toBe(1);
    expect(indexed).toBeGreaterThanOrEqual(scanned);
    expect(scanned).toBeLessThan(1);
  });
});
