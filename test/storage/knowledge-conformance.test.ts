import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeDatabase } from "../../src/data/knowledge/knowledge-database.js";
import type { KnowledgeDraft } from "../../src/data/knowledge/knowledge-entry.js";
import type { KnowledgeStore } from "../../src/data/knowledge/knowledge-store.js";
import { KNOWLEDGE_MIGRATIONS } from "../../src/data/knowledge/postgres/knowledge-migrations.js";
import { PostgresKnowledgeStore } from "../../src/data/knowledge/postgres/postgres-knowledge-store.js";
import { SqliteKnowledgeStore } from "../../src/data/knowledge/sqlite-knowledge-store.js";
import { openPostgresDatabase, type PostgresDatabase } from "../../src/data/network/postgres-database.js";
import { silentLogger } from "../../src/util/logger.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";

const PLAYER = "00000000-0000-4000-8000-0000000000a1";
const OTHER = "00000000-0000-4000-8000-0000000000b2";

const ENTRIES: readonly KnowledgeDraft[] = (
  [
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
    {
      title: "药水酿造",
      body: "酿造台需要烈焰粉作为燃料。地狱疣是大多数药水的基础，药水可以加红石延长时间。",
    },
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
    { title: "商店", body: "出生点附近的商店出售钻石、铁锭和食物，也收红石和药水。", tags: ["商店", "shop"] },
    {
      title: "探险日记",
      body: "今天挖到了钻石，还用铁砧修了镐，附魔也不错，村民交易很划算，还看到了鞘翅和末影龙。",
    },
    {
      title: "Daily log",
      body: "Got XP from the shop, asked a villager about trade, used an anvil and took a diamond.",
    },
    {
      title: "Redstone clock",
      body: "A redstone clock pulses a signal. Repeaters set the delay; a comparator reads strength.",
    },
    {
      title: "Version 1.20 notes",
      body: "Version 1.20 added the sniffer, cherry groves and trail ruins. Café blocks: none.",
    },
    {
      title: "Minecraft:diamond item",
      body: "The item id minecraft:diamond names the gem; /give @p minecraft:diamond 1.",
    },
    { title: "信标", body: "信标需要金字塔底座，可选择速度、急迫、力量等效果。信标光柱穿过玻璃会变色。" },
    { title: "签到", body: "每日签到奖励：连续签到七天可以领取额外奖励。签到在出生点的告示牌。" },
    {
      title: "Naïve builders",
      body: "Naïve builders forget lighting; mobs spawn in the dark. Light every room.",
    },
    {
      title: "Private base",
      body: "My base is at 120 64 -300, behind the waterfall.",
      source: "admin",
      owner: PLAYER,
    },
    { title: "私人笔记", body: "我的钻石藏在基地的箱子里。", source: "admin" as const, owner: PLAYER },
    {
      title: "Other's base",
      body: "Another base near the waterfall with a diamond stash.",
      source: "admin",
      owner: OTHER,
    },
    {
      title: "Stone tools",
      body: "Cobblestone makes stone tools; redstone is not stone. Stone pickaxes mine iron.",
    },
    {
      title: "Ender pearls",
      body: "Endermen drop ender pearls. Throw a pearl to teleport; eyes of ender find strongholds.",
    },
    { title: "附魔书", body: "附魔书可以在铁砧上与工具合并。图书管理员村民出售附魔书。" },
    { title: "龙蛋", body: "击败末影龙后龙蛋出现在传送门上方，用活塞把龙蛋推下来。" },
    {
      title: "Spawn rules",
      body: "Do not build within 100 blocks of spawn. Spawn is protected; rules are posted at spawn.",
    },
    { title: "水", body: "水可以用桶装起来。无限水源需要两格水。" },
  ] as Omit<KnowledgeDraft, "source">[]
).map((entry): KnowledgeDraft => ({ source: "file", ...entry }));

/** Golden queries: each must give the same hits in the same order on both backends (limit 5). */
const GOLDEN: readonly { readonly query: string; readonly player?: string; readonly first?: string }[] = [
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
  { query: "水", first: "水" },
  { query: "龙", first: "龙蛋" },
  { query: "下界合金", first: "下界合金" },
  { query: "末影龙 鞘翅", first: "末影龙" },
  { query: "每日签到奖励", first: "签到" },
  { query: "信标光柱", first: "信标" },
  { query: "diamond", first: "Minecraft:diamond item" },
  { query: "diamonds", first: "Minecraft:diamond item" },
  { query: "xp", first: "XP farm" },
  { query: "anvil", first: "Anvil" },
  { query: "tp", first: "Teleporting" },
  { query: "villager trade", first: "Villager trading" },
  { query: "stone", first: "Stone tools" },
  { query: "redstone signal" },
  { query: "teleporting pearls" },
  { query: "1.20", first: "Version 1.20 notes" },
  { query: "minecraft:diamond", first: "Minecraft:diamond item" },
  { query: "café" },
  { query: "naive builders" },
  { query: "waterfall", player: PLAYER, first: "Private base" },
  { query: "waterfall" },
  { query: "我的钻石", player: PLAYER },
  { query: "钻石 diamond" },
  { query: "shop", first: "Daily log" },
  { query: "商店", first: "商店" },
  { query: "how do I get an ender pearl" },
  { query: "zorblax quimble" },
  { query: "龙蛋 活塞 信标 钻石" },
  { query: "comparator repeater redstone" },
];

const fill = async (store: KnowledgeStore): Promise<void> => {
  for (const entry of ENTRIES) await store.add(entry);
  // a replaced and a removed entry: the totals both rankings read must move alike
  await store.upsert({ title: "Rules v1", body: "Old rules.", source: "file", ref: "rules.md" });
  await store.upsert({
    title: "Rules",
    body: "No griefing. Spawn rules apply. Be kind.",
    source: "file",
    ref: "rules.md",
  });
  const doomed = await store.add({ title: "Doomed", body: "This diamond note is removed.", source: "admin" });
  await store.remove(doomed.id);
};

describe("knowledge on SQLite and on PostgreSQL", () => {
  let cluster: PostgresCluster;
  let database: PostgresDatabase;
  let sqlite: SqliteKnowledgeStore;
  let postgres: PostgresKnowledgeStore;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    database = await openPostgresDatabase({
      config: { backend: "postgres", url: await cluster.createDatabase("knowledge"), poolSize: 4 },
      dataDir: "/nonexistent",
      environment: {},
      migrations: KNOWLEDGE_MIGRATIONS,
      logger: silentLogger,
    });
    const now = () => 1_700_000_000_000;
    sqlite = new SqliteKnowledgeStore(KnowledgeDatabase.open(":memory:", { now }), ":memory:");
    postgres = new PostgresKnowledgeStore(database.pool, { now });
    await fill(sqlite);
    await fill(postgres);
  }, 60_000);

  afterAll(async () => {
    await sqlite?.close();
    await postgres?.close();
    await database?.close();
    await cluster?.stop();
  });

  it("holds the same entries", async () => {
    expect(await postgres.count()).toBe(await sqlite.count());
    expect(await postgres.list({ after: 0, limit: 100 })).toEqual(
      await sqlite.list({ after: 0, limit: 100 }),
    );
  });

  it.each(GOLDEN)("gives the same hits in the same order for $query", async ({ query, player, first }) => {
    const search = { query, playerId: player, limit: 5 };
    const embedded = (await sqlite.search(search)).map((hit) => [hit.entry.id, hit.entry.title, hit.snippet]);
    const shared = (await postgres.search(search)).map((hit) => [hit.entry.id, hit.entry.title, hit.snippet]);
    expect(shared).toEqual(embedded);
    if (first !== undefined) expect(embedded[0]?.[1]).toBe(first);
  });

  it("keeps private entries private on both", async () => {
    for (const store of [sqlite, postgres]) {
      const titles = (await store.search({ query: "waterfall", playerId: undefined, limit: 5 })).map(
        (hit) => hit.entry.title,
      );
      expect(titles).not.toContain("Private base");
      expect(titles).not.toContain("Other's base");
    }
  });

  it("finds most golden queries at all (the comparison is not between two empty lists)", async () => {
    let found = 0;
    for (const golden of GOLDEN)
      if ((await postgres.search({ query: golden.query, playerId: golden.player, limit: 5 })).length > 0)
        found++;
    expect(found).toBeGreaterThanOrEqual(GOLDEN.length - 2);
  });

  it("replaces and skips by origin alike", async () => {
    const draft = {
      title: "Rules",
      body: "No griefing. Spawn rules apply. Be kind.",
      source: "file",
      ref: "rules.md",
    } as const;
    expect(await postgres.upsert(draft)).toBe(await sqlite.upsert(draft));
    expect(await postgres.upsert(draft)).toBe("skipped");
  });
});
