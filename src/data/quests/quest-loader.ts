import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import {
  type Quest,
  type QuestArea,
  QuestBook,
  type QuestChapter,
  type QuestItem,
  type QuestReward,
  type QuestTask,
  type QuestText,
  type RewardTable,
  type RewardTableEntry,
} from "./quest-book.js";
import { parseSnbt, type SnbtCompound, SnbtError, type SnbtValue } from "./snbt.js";

/** One problem found while loading, with the file (relative to the quest folder) and line when known. */
export interface QuestLoadError {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

export interface LoadedQuestBook {
  readonly book: QuestBook;
  readonly errors: readonly QuestLoadError[];
  /** The folder holding data.snbt. */
  readonly folder: string;
}

/**
 * The quest folder of a path: itself when it holds data.snbt, else `quests/` or `config/ftbquests/quests/`
 * under it (a server data directory or its config folder). Undefined when none exists.
 */
export const findQuestFolder = (path: string): string | undefined =>
  [
    path,
    join(path, "quests"),
    join(path, "ftbquests", "quests"),
    join(path, "config", "ftbquests", "quests"),
  ].find((candidate) => existsSync(join(candidate, "data.snbt")));

/**
 * Loads an FTB Quests folder of either era: 1.16–1.20 files keep text inline; 1.21 (FTB Quests 2101+) keeps it
 * in `lang/<locale>.snbt`. Every file is read on its own: one broken chapter is reported (file and line) and the
 * rest of the book still loads. Missing tasks or rewards are empty lists, never an error.
 */
export const loadQuestBook = (folder: string): LoadedQuestBook => {
  const errors: QuestLoadError[] = [];
  const read = (file: string): { value: SnbtCompound; text: string } | undefined => {
    const path = join(folder, file);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      errors.push({ file, line: 0, message: `cannot read: ${(error as Error).message}` });
      return undefined;
    }
    try {
      const value = parseSnbt(text);
      if (!isCompound(value)) {
        errors.push({ file, line: 1, message: "the file is not a compound" });
        return undefined;
      }
      return { value, text };
    } catch (error) {
      if (error instanceof SnbtError) errors.push({ file, line: error.line, message: error.reason });
      else errors.push({ file, line: 0, message: String(error) });
      return undefined;
    }
  };
  const data = read("data.snbt")?.value ?? {};
  const consumeByDefault = data.default_consume_items === true;
  const fallbackLocale =
    typeof data.fallback_locale === "string" ? data.fallback_locale.toLowerCase() : "en_us";
  const groups = new Map<string, string>();
  const chapters: QuestChapter[] = [];
  for (const file of snbtFiles(folder, "chapters")) {
    const loaded = read(file);
    if (loaded === undefined) continue;
    const chapter = readChapter(file, loaded.value, loaded.text, consumeByDefault, errors);
    if (chapter !== undefined) chapters.push(chapter);
  }
  const groupFile = read("chapter_groups.snbt");
  for (const group of list(groupFile?.value.chapter_groups))
    if (isCompound(group) && typeof group.id === "string") groups.set(group.id, String(group.title ?? ""));
  const tables = new Map<string, RewardTable>();
  for (const file of snbtFiles(folder, "reward_tables")) {
    const loaded = read(file);
    if (loaded === undefined) continue;
    const id = hexId(loaded.value.id);
    if (id === undefined) {
      errors.push({ file, line: 1, message: "reward table without an id" });
      continue;
    }
    tables.set(id, {
      id,
      title: text(`reward_table.${id}.title`, loaded.value.title),
      lootSize: numberOf(loaded.value.loot_size, 1),
      entries: list(loaded.value.rewards).filter(isCompound).map(tableEntry),
      file,
    });
  }
  const lang = new Map<string, Map<string, string | readonly string[]>>();
  for (const file of snbtFiles(folder, "lang")) {
    const loaded = read(file);
    if (loaded === undefined) continue;
    const entries = new Map<string, string | readonly string[]>();
    for (const [key, value] of Object.entries(loaded.value))
      if (typeof value === "string") entries.set(key, value);
      else if (Array.isArray(value))
        entries.set(
          key,
          value.map((line) => String(line)),
        );
    lang.set(file.slice("lang/".length, -".snbt".length).toLowerCase(), entries);
  }
  const book = new QuestBook(
    text("file.0000000000000001.title", data.title),
    chapters,
    tables,
    lang,
    fallbackLocale,
  );
  for (const quest of book.quests.values())
    for (const reward of quest.rewards)
      if (reward.table !== undefined && !tables.has(reward.table)) {
        const chapter = book.chapters.get(quest.chapterId);
        errors.push({
          file: chapter?.file ?? "chapters",
          line: quest.line,
          message: `reward ${reward.id} of quest ${quest.id} links the missing reward table ${reward.table}`,
        });
      }
  return { book, errors, folder };
};

const readChapter = (
  file: string,
  value: SnbtCompound,
  source: string,
  consumeByDefault: boolean,
  errors: QuestLoadError[],
): QuestChapter | undefined => {
  const id = hexId(value.id);
  if (id === undefined) {
    errors.push({ file, line: 1, message: "chapter without an id" });
    return undefined;
  }
  const quests: Quest[] = [];
  for (const raw of list(value.quests)) {
    if (!isCompound(raw)) continue;
    const questId = hexId(raw.id);
    const line = questId === undefined ? 1 : lineOf(source, questId);
    if (questId === undefined) {
      errors.push({ file, line, message: "quest without an id" });
      continue;
    }
    quests.push({
      id: questId,
      chapterId: id,
      title: text(`quest.${questId}.title`, raw.title),
      subtitle: text(`quest.${questId}.quest_subtitle`, raw.subtitle),
      description: text(`quest.${questId}.quest_desc`, raw.description),
      ...(itemId(raw.icon) === undefined ? {} : { icon: itemId(raw.icon) as string }),
      tasks: list(raw.tasks)
        .filter(isCompound)
        .flatMap((task) => readTask(task, consumeByDefault, raw)),
      rewards: list(raw.rewards).filter(isCompound).flatMap(readReward),
      dependencies: list(raw.dependencies).flatMap((dependency) => {
        const hex = hexId(dependency);
        return hex === undefined ? [] : [hex];
      }),
      hide: raw.hide === true,
      hideUntilDepsVisible: raw.hide_until_deps_visible === true,
      invisible: raw.invisible === true,
      optional: raw.optional === true,
      line,
    });
  }
  return {
    id,
    filename: typeof value.filename === "string" ? value.filename : file,
    title: text(`chapter.${id}.title`, value.title),
    ...(typeof value.group === "string" && value.group.length > 0 ? { group: value.group } : {}),
    orderIndex: numberOf(value.order_index, 0),
    quests,
    file,
  };
};

const readTask = (raw: SnbtCompound, consumeByDefault: boolean, quest: SnbtCompound): QuestTask[] => {
  const id = hexId(raw.id);
  if (id === undefined) return [];
  const item = questItem(raw.item);
  const type = typeName(raw.type);
  return [
    {
      id,
      type,
      title: text(`task.${id}.title`, raw.title),
      ...(item === undefined ? {} : { item }),
      // item tasks say `count`; xp, kill and stat tasks say `value`
      count: numberOf(raw.count, numberOf(raw.value, 1)),
      consumeItems:
        raw.consume_items === true ||
        (raw.consume_items !== false && (quest.consume_items === true || consumeByDefault)),
      points: raw.points === true,
      ...(typeof raw.dimension === "string" ? { dimension: raw.dimension } : {}),
      ...(typeof raw.entity === "string" ? { entity: raw.entity } : {}),
      ...(type === "location" ? areaOf(raw) : {}),
    },
  ];
};

/** A location task's box: `position: [I; x, y, z]`, `size: [I; w, h, d]` (1 each when absent). */
const areaOf = (raw: SnbtCompound): { area?: QuestArea } => {
  const ints = (value: SnbtValue | undefined): number[] | undefined =>
    Array.isArray(value) && value.length === 3 && value.every((part) => typeof part === "number")
      ? (value as number[])
      : undefined;
  const position = ints(raw.position);
  if (position === undefined) return {};
  const [x = 0, y = 0, z = 0] = position;
  const [w = 1, h = 1, d = 1] = ints(raw.size) ?? [1, 1, 1];
  return {
    area: {
      x,
      y,
      z,
      w: Math.max(1, w),
      h: Math.max(1, h),
      d: Math.max(1, d),
      ignoreDimension: raw.ignore_dimension === true,
    },
  };
};

const readReward = (raw: SnbtCompound): QuestReward[] => {
  const id = hexId(raw.id);
  if (id === undefined) return [];
  const item = questItem(raw.item);
  const type = typeName(raw.type);
  const amount =
    type === "xp" ? numberOf(raw.xp, 100) : type === "xp_levels" ? numberOf(raw.xp_levels, 5) : undefined;
  const table = raw.table_id === undefined ? undefined : tableHex(raw.table_id);
  return [
    {
      id,
      type,
      title: text(`reward.${id}.title`, raw.title),
      ...(item === undefined ? {} : { item }),
      count: numberOf(raw.count, 1),
      ...(amount === undefined ? {} : { amount }),
      ...(table === undefined ? {} : { table }),
      ...(typeof raw.command === "string" ? { command: raw.command } : {}),
    },
  ];
};

const tableEntry = (raw: SnbtCompound): RewardTableEntry => {
  const item = questItem(raw.item);
  return {
    weight: numberOf(raw.weight, 1),
    ...(item === undefined ? {} : { item }),
    // entries without a type are items (real 1.21 tables omit it)
    type: raw.type === undefined ? "item" : typeName(raw.type),
    count: numberOf(raw.count, 1),
  };
};

/** `ftbquests:item` and `item` are one type. */
const typeName = (value: SnbtValue | undefined): string =>
  typeof value === "string" ? value.replace(/^ftbquests:/, "") : "item";

const text = (key: string, inline: SnbtValue | undefined): QuestText => {
  if (typeof inline === "string") return { key, inline };
  if (Array.isArray(inline)) return { key, inline: inline.map((line) => String(line)) };
  return { key };
};

/** An item in any era: `"minecraft:stone"`, `{id, Count: 1b, tag}` (1.16–1.20) or `{id, count, components}` (1.21). */
const questItem = (value: SnbtValue | undefined): QuestItem | undefined => {
  const id = itemId(value);
  if (id === undefined) return undefined;
  const count = isCompound(value) ? numberOf(value.count ?? value.Count, 1) : 1;
  const filter = isCompound(value) ? filterOf(value) : undefined;
  return filter === undefined ? { id, count } : { id, count, filter };
};

/** The filter of an Item Filters item (`tag: {value}`) or an FTB Filter System item (its data component). */
const filterOf = (value: { readonly [key: string]: SnbtValue }): string | undefined => {
  const tag = value.tag;
  if (isCompound(tag) && typeof tag.value === "string") return tag.value;
  const components = value.components;
  if (isCompound(components) && typeof components["ftbfiltersystem:filter"] === "string")
    return components["ftbfiltersystem:filter"];
  if (isCompound(tag) && typeof tag["ftbfiltersystem:filter"] === "string")
    return tag["ftbfiltersystem:filter"];
  return undefined;
};

const itemId = (value: SnbtValue | undefined): string | undefined => {
  if (typeof value === "string") return value.length > 0 ? value : undefined;
  if (isCompound(value) && typeof value.id === "string") return value.id;
  return undefined;
};

/** Object ids are 16 hex digits (older packs may write them as longs). */
const hexId = (value: SnbtValue | undefined): string | undefined => {
  if (typeof value === "string")
    return /^[0-9a-fA-F]{1,16}$/.test(value) ? value.toUpperCase().padStart(16, "0") : undefined;
  if (typeof value === "bigint" || typeof value === "number") return tableHex(value);
  return undefined;
};

/** `table_id` is the table's hex id read as a signed 64-bit decimal. */
export const tableHex = (value: SnbtValue): string | undefined => {
  if (typeof value !== "bigint" && typeof value !== "number") return undefined;
  const unsigned = BigInt.asUintN(64, BigInt(value));
  return unsigned.toString(16).toUpperCase().padStart(16, "0");
};

const numberOf = (value: SnbtValue | undefined, fallback: number): number => {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "bigint") return Number(value);
  return fallback;
};

const list = (value: SnbtValue | undefined): SnbtValue[] => (Array.isArray(value) ? value : []);

const isCompound = (value: SnbtValue | undefined): value is SnbtCompound =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const lineOf = (source: string, id: string): number => {
  const at = source.search(new RegExp(`id:\\s*"${id}"`, "i"));
  return at < 0 ? 1 : source.slice(0, at).split("\n").length;
};

const snbtFiles = (folder: string, sub: string): string[] => {
  const root = join(folder, sub);
  const found: string[] = [];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".snbt")) found.push(relative(folder, path).split("\\").join("/"));
    }
  };
  walk(root);
  return found;
};
