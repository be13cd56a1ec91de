import { resolve } from "node:path";
import { findQuestFolder, loadQuestBook } from "./quest-loader.js";

interface Output {
  write(text: string): unknown;
}

const USAGE = "usage: system quests inspect <dir> [--json] [--locale LOCALE]";

/**
 * `npx system quests inspect <dir> [--json] [--locale L]`: loads a quest folder (the folder with data.snbt, or a
 * data directory holding `config/ftbquests/quests/`) and prints its counts, its chapters in the locale, and every
 * error with file and line. With `--json` the last line is one JSON object: `chapters, quests, tasks, rewards,
 * rewardTables` and `errors` (`{file, line, message}`). Exit 0 when it loaded without errors, 1 otherwise.
 */
export const questsCommand = (
  args: readonly string[],
  io: { readonly out: Output; readonly err: Output },
): number => {
  const [sub, ...rest] = args;
  if (sub !== "inspect") {
    io.err.write(`${USAGE}\n`);
    return 2;
  }
  let json = false;
  let locale = "en_us";
  let dir: string | undefined;
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index] as string;
    if (arg === "--json") json = true;
    else if (arg === "--locale") {
      const value = rest[++index];
      if (value === undefined || !/^[a-z]{2}_[a-z]{2}$/i.test(value)) {
        io.err.write(`--locale needs a locale such as zh_cn\n${USAGE}\n`);
        return 2;
      }
      locale = value.toLowerCase();
    } else if (dir === undefined && !arg.startsWith("--")) dir = arg;
    else {
      io.err.write(`unexpected argument ${JSON.stringify(arg)}\n${USAGE}\n`);
      return 2;
    }
  }
  if (dir === undefined) {
    io.err.write(`${USAGE}\n`);
    return 2;
  }
  const folder = findQuestFolder(resolve(dir));
  if (folder === undefined) {
    io.err.write(`no FTB Quests folder (data.snbt) under ${dir}\n`);
    return 1;
  }
  const { book, errors } = loadQuestBook(folder);
  const counts = book.counts();
  const locales = book.locales();
  io.out.write(`${folder}\n`);
  io.out.write(
    `chapters ${counts.chapters}, quests ${counts.quests}, tasks ${counts.tasks}, rewards ${counts.rewards}, reward tables ${counts.rewardTables}\n`,
  );
  io.out.write(
    `text: ${locales.length === 0 ? "inline" : `lang files ${locales.join(", ")}`} (fallback ${book.fallbackLocale})\n`,
  );
  if (!json)
    for (const chapter of book.chapters.values())
      io.out.write(
        `  ${book.text(chapter.title, locale) || chapter.filename}: ${chapter.quests.length} ${chapter.quests.length === 1 ? "quest" : "quests"}\n`,
      );
  for (const error of errors) io.out.write(`${error.file}:${error.line}: ${error.message}\n`);
  io.out.write(
    errors.length === 0 ? "no errors\n" : `${errors.length} ${errors.length === 1 ? "error" : "errors"}\n`,
  );
  if (json) io.out.write(`${JSON.stringify({ ...counts, errors })}\n`);
  return errors.length === 0 ? 0 : 1;
};
