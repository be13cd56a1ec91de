import { mkdir, readFile, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import {
  accumulate,
  type DailyUsage,
  dailyOf,
  LocalReservations,
  localDay,
  type QuotaLimit,
  type QuotaRequest,
  selectUsage,
  type UsageEntry,
  type UsageQuery,
  type UsageRecord,
  type UsageStore,
  usageKey,
} from "../../agent/storage/usage-store.js";
import { writeFileAtomic } from "../../util/atomic-file.js";
import type { Logger } from "../../util/logger.js";

/** The on-disk format version; other versions are refused loudly. */
export const USAGE_FORMAT = 1;

const count = z.number().int().nonnegative();
const FILE_SCHEMA = z.object({
  format: z.number().int(),
  records: z.array(
    z.object({
      playerId: z.string(),
      day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      workflow: z.string(),
      calls: count,
      failures: count,
      inputTokens: count,
      outputTokens: count,
      latencyMillis: count,
    }),
  ),
});

export interface FileUsageStoreOptions {
  /** e.g. `<world>/system/model-usage.json`. */
  readonly path: string;
  readonly logger: Logger;
  /** Days of records kept (older days are dropped on write); daily quotas only need today. */
  readonly retainDays?: number;
  readonly now?: () => number;
}

/**
 * Model usage in one JSON file, rewritten atomically after every change (writes are coalesced, so parallel
 * calls cause one write each burst). A corrupt file is moved aside and logged; counting starts fresh.
 */
export class FileUsageStore implements UsageStore {
  readonly #records = new Map<string, UsageRecord>();
  readonly #reservations = new LocalReservations();
  #writing: Promise<void> | undefined;
  #dirty = false;

  private constructor(private readonly options: FileUsageStoreOptions) {}

  static async open(options: FileUsageStoreOptions): Promise<FileUsageStore> {
    const store = new FileUsageStore(options);
    await store.#load();
    return store;
  }

  async reserve(request: QuotaRequest): Promise<QuotaLimit | undefined> {
    return this.#reservations.reserve(request, this.daily(request.playerId, request.day));
  }

  async refund(playerId: string, day: string): Promise<void> {
    this.#reservations.release(playerId, day);
  }

  async add(entry: UsageEntry): Promise<void> {
    const key = usageKey(entry.playerId, entry.day, entry.workflow);
    this.#records.set(key, accumulate(this.#records.get(key), entry));
    this.#reservations.release(entry.playerId, entry.day);
    await this.#persist();
  }

  daily(playerId: string, day: string): DailyUsage {
    return dailyOf(this.#records.values(), playerId, day);
  }

  query(query?: UsageQuery): UsageRecord[] {
    return selectUsage(this.#records.values(), query);
  }

  /** Resolves when every change so far is on disk. */
  async flush(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
  }

  async #load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.options.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      await this.#setAside("not valid JSON");
      return;
    }
    const format = (data as { format?: unknown } | null)?.format;
    if (typeof format === "number" && format !== USAGE_FORMAT)
      throw new Error(
        `${this.options.path}: usage format ${format} is not supported (expected ${USAGE_FORMAT})`,
      );
    const parsed = FILE_SCHEMA.safeParse(data);
    if (!parsed.success) {
      await this.#setAside(parsed.error.issues[0]?.message ?? "invalid");
      return;
    }
    for (const record of parsed.data.records)
      this.#records.set(usageKey(record.playerId, record.day, record.workflow), record);
  }

  async #setAside(reason: string): Promise<void> {
    const aside = `${this.options.path}.corrupt-${Date.now()}`;
    await rename(this.options.path, aside);
    this.options.logger.error(
      `model usage file ${this.options.path} is invalid (${reason}); moved to ${aside}`,
    );
  }

  async #persist(): Promise<void> {
    this.#dirty = true;
    while (this.#writing !== undefined) await this.#writing;
    if (!this.#dirty) return;
    this.#dirty = false;
    this.#writing = this.#write().finally(() => {
      this.#writing = undefined;
    });
    await this.#writing;
  }

  async #write(): Promise<void> {
    this.#prune();
    const body = { format: USAGE_FORMAT, records: this.query() };
    await mkdir(dirname(this.options.path), { recursive: true });
    await writeFileAtomic(this.options.path, `${JSON.stringify(body)}\n`);
  }

  #prune(): void {
    const retainDays = this.options.retainDays ?? 62;
    const oldest = localDay((this.options.now ?? Date.now)() - (retainDays - 1) * 86_400_000);
    for (const [key, record] of this.#records) if (record.day < oldest) this.#records.delete(key);
  }
}
