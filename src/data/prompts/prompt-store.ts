import { readdir, readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { missingPrompt, type PromptSource, promptId } from "../../agent/model/prompt-source.js";
import type { Logger } from "../../util/logger.js";

/** The built-in data pack root (the repository's `resources` folder). */
export const BUILTIN_PACK_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "resources");

/** Prompt files above this size are ignored (they would eat the request's input-byte budget). */
const MAX_PROMPT_BYTES = 64 * 1024;
const NAME = /^[a-z0-9_.-]+$/;

export interface PromptStoreOptions {
  /**
   * Pack roots in priority order, later ones win: the built-in root first, then server data packs. A root
   * holds `data/<namespace>/<namespace>/prompts/<name>.txt`, giving the prompt `<namespace>:<name>`.
   */
  readonly roots: readonly string[];
  readonly logger: Logger;
}

/**
 * Prompts loaded from data packs, overridable by server packs and reloadable. A reload builds a new table
 * and swaps it whole, so a request that already took its prompt string keeps it.
 */
export class PromptStore implements PromptSource {
  #roots: readonly string[];
  #prompts: ReadonlyMap<string, string> = new Map();
  #generation = 0;

  private constructor(private readonly options: PromptStoreOptions) {
    this.#roots = options.roots;
  }

  static async load(options: PromptStoreOptions): Promise<PromptStore> {
    const store = new PromptStore(options);
    await store.reload();
    return store;
  }

  get generation(): number {
    return this.#generation;
  }

  get(name: string): string {
    const text = this.#prompts.get(promptId(name));
    if (text === undefined) throw missingPrompt(name);
    return text;
  }

  has(name: string): boolean {
    return this.#prompts.has(promptId(name));
  }

  /** Every loaded prompt id, sorted. */
  names(): string[] {
    return [...this.#prompts.keys()].sort();
  }

  /** Re-reads every root (optionally a new list of roots); changes apply to requests that start afterwards. */
  async reload(roots: readonly string[] = this.#roots): Promise<void> {
    const next = new Map<string, string>();
    for (const root of roots) await this.#readRoot(root, next);
    this.#roots = roots;
    if (!sameTable(this.#prompts, next)) this.#generation++;
    this.#prompts = next;
  }

  async #readRoot(root: string, into: Map<string, string>): Promise<void> {
    const data = join(root, "data");
    for (const namespace of await listFolder(data)) {
      if (!NAME.test(namespace)) continue;
      const folder = join(data, namespace, namespace, "prompts");
      for (const file of await listFolder(folder)) {
        if (!file.endsWith(".txt")) continue;
        const name = file.slice(0, -".txt".length);
        if (!NAME.test(name)) {
          this.options.logger.warn(`prompt file ${join(folder, file)} has an invalid name; ignored`);
          continue;
        }
        const text = await this.#readPrompt(join(folder, file));
        if (text !== undefined) into.set(`${namespace}:${name}`, text);
      }
    }
  }

  async #readPrompt(path: string): Promise<string | undefined> {
    try {
      const info = await stat(path);
      if (!info.isFile()) return undefined;
      if (info.size > MAX_PROMPT_BYTES) {
        this.options.logger.warn(`prompt ${path} is larger than ${MAX_PROMPT_BYTES} bytes; ignored`);
        return undefined;
      }
      const text = normalize(await readFile(path, "utf8"));
      if (text === "") {
        this.options.logger.warn(`prompt ${path} is empty; ignored`);
        return undefined;
      }
      return text;
    } catch (error) {
      this.options.logger.error(`prompt ${path} cannot be read; ignored`, error);
      return undefined;
    }
  }
}

const listFolder = async (folder: string): Promise<string[]> => {
  try {
    return (await readdir(folder)).sort();
  } catch {
    return [];
  }
};

/** Drops a BOM, unifies line ends and trims trailing whitespace. */
const normalize = (text: string): string =>
  text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .trimEnd();

const sameTable = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean =>
  a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);
