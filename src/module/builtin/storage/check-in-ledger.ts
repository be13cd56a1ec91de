import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { writeFileAtomic } from "../../../util/atomic-file.js";
import { CorruptFileError } from "../../../util/corrupt-file-error.js";

/** The on-disk format version; other versions are refused loudly. */
export const CHECK_IN_LEDGER_FORMAT = 1;

/** Player-day entries the ledger holds before it refuses new ones (STORAGE_FULL): a bound on the file. */
export const MAX_LEDGER_ENTRIES = 100_000;

const DAY = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const FILE_SCHEMA = z.object({
  format: z.number().int(),
  /** Local day → ids of the players whose reward of that day was claimed. */
  days: z.record(DAY, z.array(z.string().max(64))),
  /** Local day → player id → [streak, total] after that day's check-in (absent in files of earlier builds). */
  standings: z
    .record(DAY, z.record(z.string().max(64), z.tuple([z.number().int(), z.number().int()])))
    .optional(),
});

/** A player's check-in as the ledger last saw it: the day, the streak and total it made. */
export interface LedgerStanding {
  readonly day: string;
  readonly streak: number;
  readonly total: number;
}

/**
 * The days whose check-in reward each player has claimed, kept apart from the player files: `/system reset`
 * deletes a player's file, not this, so a reset can never pay the same day twice. Only `keepFrom` and later days
 * are kept (today and yesterday are all a check-in asks about).
 */
export class CheckInLedger {
  #days: Map<string, Set<string>> | undefined;
  /** Day → player → [streak, total], for the kept days. */
  #standings = new Map<string, Map<string, [number, number]>>();
  #chain: Promise<unknown> = Promise.resolve();

  /** `path` (`<world>/system/check-in-ledger.json`); without one the ledger lives in memory only. */
  constructor(private readonly path?: string) {}

  /** Whether the player's reward of `day` was claimed. */
  claimed(playerId: string, day: string): Promise<boolean> {
    return this.#run(async () => (await this.#load()).get(day)?.has(playerId) === true);
  }

  /**
   * The player's latest claimed day with the streak and total it made (the kept days only): what a check-in
   * knows of a player whose file lost it (damaged, reset).
   */
  latest(playerId: string): Promise<LedgerStanding | undefined> {
    return this.#run(async () => {
      const days = [...(await this.#load())].filter(([, players]) => players.has(playerId));
      const day = days
        .map(([entry]) => entry)
        .sort()
        .at(-1);
      if (day === undefined) return undefined;
      const [streak, total] = this.#standings.get(day)?.get(playerId) ?? [1, 1];
      return { day, streak, total };
    });
  }

  /**
   * Claims the player's reward of `day` (with the streak and total it made); resolves once the claim is durable.
   * False: it was claimed before. Days before `keepFrom` are dropped on the same write. Over the bound it throws
   * STORAGE_FULL.
   */
  claim(
    playerId: string,
    day: string,
    keepFrom: string,
    standing: { readonly streak: number; readonly total: number } = { streak: 1, total: 1 },
  ): Promise<boolean> {
    return this.#run(async () => {
      const days = await this.#load();
      if (days.get(day)?.has(playerId) === true) return false;
      const next = new Map<string, Set<string>>();
      for (const [entry, players] of days) if (entry >= keepFrom) next.set(entry, new Set(players));
      const players = next.get(day) ?? new Set<string>();
      next.set(day, players.add(playerId));
      let entries = 0;
      for (const set of next.values()) entries += set.size;
      if (entries > MAX_LEDGER_ENTRIES) throw new AgentException(AgentFailure.STORAGE_FULL);
      const standings = new Map<string, Map<string, [number, number]>>();
      for (const [entry, byPlayer] of this.#standings)
        if (entry >= keepFrom) standings.set(entry, new Map(byPlayer));
      standings.set(day, (standings.get(day) ?? new Map()).set(playerId, [standing.streak, standing.total]));
      await this.#write(next, standings);
      // memory changes only once the file has it: a failed write leaves the ledger as it was
      this.#days = next;
      this.#standings = standings;
      return true;
    });
  }

  #run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(work, work);
    this.#chain = next.catch(() => {});
    return next;
  }

  async #load(): Promise<Map<string, Set<string>>> {
    if (this.#days !== undefined) return this.#days;
    const days = new Map<string, Set<string>>();
    if (this.path !== undefined) {
      let text: string | undefined;
      try {
        text = await readFile(this.path, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
      if (text !== undefined) {
        const parsed = FILE_SCHEMA.safeParse(safeJson(text));
        if (!parsed.success)
          throw new CorruptFileError(
            this.path,
            `check-in ledger ${this.path} is not valid: ${parsed.error.message}`,
          );
        if (parsed.data.format !== CHECK_IN_LEDGER_FORMAT)
          throw new CorruptFileError(
            this.path,
            `check-in ledger ${this.path} has format ${parsed.data.format}; this build reads ${CHECK_IN_LEDGER_FORMAT}`,
          );
        for (const [day, players] of Object.entries(parsed.data.days)) days.set(day, new Set(players));
        for (const [day, byPlayer] of Object.entries(parsed.data.standings ?? {}))
          this.#standings.set(day, new Map(Object.entries(byPlayer)));
      }
    }
    this.#days = days;
    return days;
  }

  async #write(
    days: ReadonlyMap<string, ReadonlySet<string>>,
    standings: ReadonlyMap<string, ReadonlyMap<string, [number, number]>>,
  ): Promise<void> {
    if (this.path === undefined) return;
    const record: Record<string, string[]> = {};
    for (const [day, players] of [...days].sort(([left], [right]) => left.localeCompare(right)))
      record[day] = [...players];
    const kept: Record<string, Record<string, [number, number]>> = {};
    for (const [day, byPlayer] of standings) kept[day] = Object.fromEntries(byPlayer);
    await mkdir(dirname(this.path), { recursive: true });
    await writeFileAtomic(
      this.path,
      `${JSON.stringify({ format: CHECK_IN_LEDGER_FORMAT, days: record, standings: kept })}\n`,
    );
  }
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};
