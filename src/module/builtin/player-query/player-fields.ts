/** The parts of a player's state a question can be about; the card shows the asked one first. */
export const PLAYER_FIELDS = ["health", "food", "level", "position", "game_mode", "inventory"] as const;
export type PlayerField = (typeof PLAYER_FIELDS)[number];

/** Words that ask for one field, per field, both languages (checked in this order: the first hit wins). */
const FIELD_WORDS: readonly (readonly [PlayerField, RegExp])[] = [
  ["game_mode", /游戏模式|什么模式|\bgame ?mode\b|\bcreative\b|\bsurvival\b/],
  ["health", /血|生命|\bhealth\b|\bhp\b|\bhearts?\b/],
  ["food", /饥饿|饱食|饿|\bhunger\b|\bhungry\b|\bfood\b/],
  ["level", /等级|几级|经验|\blevels?\b|\bxp\b|\bexp\b|\bexperience\b|\blvl\b/],
  [
    "position",
    /坐标|位置|在哪|哪个维度|下界|末地|主世界|\bwhere\b|\bcoords?\b|\bcoordinates\b|\bposition\b|\blocation\b|\bdimension\b|\bnether\b/,
  ],
  ["inventory", /背包|物品栏|身上|带了|\binv\b|\binventory\b|\bcarrying\b|\bon me\b|\bitems\b/],
];

/**
 * Where something is, or where to go or do something ("where do I get steel", "where did I die", "我在哪里能找到钢",
 * "我该去哪"): the speaker's position is asked only as "where am I" / "我在哪".
 */
const WHERE_ELSE =
  /\bwhere\s+(do|does|did|can|could|should|would|will|to|was|were)\b|哪(里|儿)?(能|可以|才能|有卖|买|找)|去哪/;

/** The speaker: a player only ever reads their own state. */
const FIRST_PERSON = /我|\b(my|me|i|i'm|im|am i|mine)\b/;
/** Someone else's state (他的血量, steve's health) is not this workflow's to answer. */
const SOMEONE_ELSE = /他|她|别人|其他人|\b(his|her|their|someone|others?|player's)\b|\b[a-z0-9_]{3,16}'s\b/;

/**
 * Reads a player query from free text: undefined unless it is about the speaker (我/my/me); otherwise the field
 * asked about, or none (the whole card). `where am I`, `我的血量是多少`, `what's in my inv`.
 */
export const extractPlayerQuery = (text: string): { field?: PlayerField } | undefined => {
  const normalized = text.normalize("NFKC").toLowerCase();
  const withoutSelf = normalized.replace(/\b(what|where|who|how|it|that|there|here|let)'s\b/g, " ");
  if (!FIRST_PERSON.test(normalized) || SOMEONE_ELSE.test(withoutSelf) || WHERE_ELSE.test(normalized))
    return undefined;
  for (const [field, words] of FIELD_WORDS) if (words.test(normalized)) return { field };
  return {};
};
