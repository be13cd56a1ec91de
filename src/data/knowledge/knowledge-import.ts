import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join, relative, sep } from "node:path";
import { DRAFT_FIELDS, JSON_IMPORT_CODEC, MAX_BODY_CHARS } from "./knowledge-entry.js";
import type { KeyedDraft, KnowledgeStore } from "./knowledge-store.js";
import { ProgressBar, type ProgressStream } from "./progress-bar.js";

/** Files above this size are refused (a knowledge file that large is almost surely a mistake). */
export const MAX_IMPORT_FILE_BYTES = 8 * 1024 * 1024;

const EXTENSIONS = new Set([".md", ".markdown", ".txt", ".json"]);

/** What one import did; `failures` names each file that could not be imported and why. */
export interface ImportSummary {
  imported: number;
  updated: number;
  skipped: number;
  failed: number;
  readonly failures: { readonly file: string; readonly reason: string }[];
}

export interface ImportOptions {
  readonly store: KnowledgeStore;
  readonly folder: string;
  /** Where the progress bar is drawn (stderr in the CLI); none when absent. */
  readonly progress?: ProgressStream;
}

/**
 * Imports every Markdown (`title` = first heading), text (`title` = file name) and JSON (array of
 * `{title, body, tags?}`) file under a folder into the shared table. Entries are keyed by their relative path,
 * so importing again updates changed entries and skips unchanged ones. One file is one transaction.
 */
export const importKnowledge = async (options: ImportOptions): Promise<ImportSummary> => {
  const files = listFiles(options.folder);
  const summary: ImportSummary = { imported: 0, updated: 0, skipped: 0, failed: 0, failures: [] };
  const bar =
    options.progress === undefined ? undefined : new ProgressBar(options.progress, files.length, "import");
  for (const [index, file] of files.entries()) {
    const name = relative(options.folder, file).split(sep).join("/");
    bar?.update(index, name);
    try {
      const outcomes = await options.store.upsertAll(draftsOf(file, name));
      for (const outcome of outcomes) summary[outcome]++;
    } catch (error) {
      summary.failed++;
      summary.failures.push({ file: name, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  bar?.update(files.length);
  bar?.done();
  return summary;
};

/** The one-line summary the CLI prints. */
export const summaryLine = (summary: ImportSummary): string =>
  `imported ${summary.imported}, updated ${summary.updated}, skipped ${summary.skipped}, failed ${summary.failed}`;

/** The entries of one file, keyed by its relative path (and index in a JSON array). */
const draftsOf = (file: string, name: string): KeyedDraft[] => {
  if (statSync(file).size > MAX_IMPORT_FILE_BYTES)
    throw new Error(`larger than ${MAX_IMPORT_FILE_BYTES} bytes`);
  const text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  const extension = extname(file).toLowerCase();
  if (extension === ".json") {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new Error("not valid JSON");
    }
    const items = JSON_IMPORT_CODEC.decode(data);
    if (!items.success) throw new Error(`not an array of {title, body, tags?}: ${items.error}`);
    return items.value.map((item, index) => ({
      ...item,
      tags: item.tags ?? [],
      source: "file",
      ref: `${name}#${index}`,
    }));
  }
  const draft = extension === ".txt" ? plainText(file, text) : markdown(file, text);
  const checked = DRAFT_FIELDS.safeParse(draft);
  if (!checked.success)
    throw new Error(
      checked.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "),
    );
  return [{ ...checked.data, tags: [], source: "file", ref: name }];
};

const HEADING = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/;

/** Markdown: the first heading is the title and is left out of the body; without one, the file name. */
const markdown = (file: string, text: string): { title: string; body: string } => {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((line) => HEADING.test(line));
  if (at < 0) return { title: baseTitle(file), body: text.slice(0, MAX_BODY_CHARS + 1) };
  const title = (HEADING.exec(lines[at] ?? "")?.[1] ?? baseTitle(file)).trim();
  const body = [...lines.slice(0, at), ...lines.slice(at + 1)].join("\n").trim();
  return { title, body };
};

const plainText = (file: string, text: string): { title: string; body: string } => ({
  title: baseTitle(file),
  body: text,
});

const baseTitle = (file: string): string => basename(file, extname(file)).replace(/[_-]+/g, " ").trim();

/** Importable files under a folder, depth first, sorted so runs are repeatable; hidden entries are skipped. */
const listFiles = (folder: string): string[] => {
  const found: string[] = [];
  const visit = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      if (entry.name.startsWith(".")) continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile() && EXTENSIONS.has(extname(entry.name).toLowerCase())) found.push(path);
    }
  };
  visit(folder);
  return found;
};
