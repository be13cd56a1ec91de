import { z } from "zod";
import type { AgentLifecycle } from "../agent/agent-lifecycle.js";
import { AgentResult } from "../agent/agent-result.js";
import type { AnyModuleStorage } from "../agent/storage/module-storage.js";
import type { PlayerRecord } from "../agent/storage/player-data.js";
import { translatable } from "../agent/text.js";
import type { DamagedPlayerFile, FileAgentStore } from "../data/store/file-agent-store.js";
import { ADMIN_LEVEL, type RestoreOutcome } from "../module/builtin/core/core-services.js";
import { codec } from "../util/codec.js";
import { ConfigInstance } from "../util/config-instance.js";
import type { Logger } from "../util/logger.js";
import type { Validation } from "../util/validation.js";
import type { PlayerDirectory } from "./player-directory.js";

/** A player whose file was found damaged, with the copies kept of it (newest last) until an admin restores one. */
export interface DamagedPlayer {
  readonly playerId: string;
  readonly kept: readonly string[];
  readonly reason: string;
  readonly at: number;
}

const FILE = codec(
  z.object({
    players: z.record(
      z.string().max(64),
      z.object({ kept: z.array(z.string()).max(64), reason: z.string(), at: z.number() }),
    ),
  }),
);
type DamagedFile = z.infer<typeof FILE.schema>;

/** A notice for admins: the player (a name when known), the copy kept of their file. */
export type DamagedNotice = (player: DamagedPlayer) => void;

/**
 * The players whose file was damaged, kept in `<world>/system/damaged-players.json` until an admin restores a
 * mended copy (`/system restore <player>`) or dismisses the notice: every report is logged with the player and
 * the copy kept, told to the admins online, and told again to each admin who joins while it is open.
 */
export class DamagedPlayerFiles {
  readonly #file: ConfigInstance<DamagedFile>;
  readonly #listeners: DamagedNotice[] = [];
  #writes: Promise<unknown> = Promise.resolve();
  /** The open notices by player (what the file holds once the pending writes are done). */
  #open = new Map<string, { kept: string[]; reason: string; at: number }>();

  constructor(
    private readonly options: {
      readonly path: string | undefined;
      readonly logger: Logger;
      readonly now: () => number;
      readonly nameOf: (playerId: string) => string | undefined;
    },
  ) {
    this.#file = new ConfigInstance({
      path: options.path,
      codec: FILE,
      defaults: { players: {} },
      logger: options.logger,
      name: "damaged-players.json",
      onInvalid: "refuse",
    });
  }

  /** Reads the open notices; throws a CorruptFileError naming the file when it is invalid. */
  async load(): Promise<void> {
    await this.#file.reload();
    this.#open = new Map(Object.entries(this.#file.get().players));
  }

  /** Listens for new reports (the assembly tells the admins online). */
  listen(listener: DamagedNotice): void {
    this.#listeners.push(listener);
  }

  /** A store found a player file damaged and kept a copy: logged, recorded, told. Never throws. */
  report(report: DamagedPlayerFile): void {
    const name = this.options.nameOf(report.playerId) ?? report.playerId;
    this.options.logger.error(
      `the file of player ${name} (${report.playerId}) is damaged (${report.reason}); a copy is kept at ` +
        `${report.kept}. Mend the copy, then run /system restore ${name} (docs/admin.md).`,
    );
    const at = this.options.now();
    const kept = [...(this.#open.get(report.playerId)?.kept ?? []), report.kept].slice(-64);
    this.#open.set(report.playerId, { kept, reason: report.reason, at });
    void this.#persist();
    const player = { playerId: report.playerId, kept: [report.kept], reason: report.reason, at };
    for (const listener of this.#listeners) listener(player);
  }

  /** The open notices, oldest first. */
  list(): DamagedPlayer[] {
    return [...this.#open]
      .map(([playerId, entry]) => ({ playerId, ...entry }))
      .sort((left, right) => left.at - right.at);
  }

  /** The open notice of one player. */
  get(playerId: string): DamagedPlayer | undefined {
    const entry = this.#open.get(playerId);
    return entry === undefined ? undefined : { playerId, ...entry };
  }

  /** Closes a player's notice (restored, or dismissed by an admin); the kept copies stay on disk. */
  async forget(playerId: string): Promise<void> {
    this.#open.delete(playerId);
    await this.#persist();
  }

  /** Writes the open notices (one write at a time, each with what memory holds then); failures are logged. */
  #persist(): Promise<void> {
    const write = this.#writes.then(() => this.#file.set({ players: Object.fromEntries(this.#open) }));
    this.#writes = write.catch((error: unknown) =>
      this.options.logger.error("damaged-players.json was not written", error),
    );
    return this.#writes.then(() => undefined);
  }
}

/**
 * Tells admins (operator level ≥ 2, verified) of damaged player files: each new report to the admins online, and
 * every open notice to an admin when they join. The text names the player and the kept copy.
 */
export const tellAdmins = (options: {
  readonly damaged: DamagedPlayerFiles;
  readonly players: PlayerDirectory;
  readonly lifecycles: { register(hook: AgentLifecycle): void };
  readonly notify: (playerId: string, result: AgentResult) => void;
}): void => {
  const { damaged, players, notify } = options;
  const notice = (player: DamagedPlayer): AgentResult => {
    const name = players.nameOf(player.playerId) ?? player.playerId;
    return AgentResult.success(
      translatable("system.admin.damaged_file", name, player.kept[player.kept.length - 1] ?? "", name),
    );
  };
  const isAdmin = (playerId: string): boolean => (players.online(playerId)?.opLevel ?? 0) >= ADMIN_LEVEL;
  damaged.listen((player) => {
    for (const online of players.everyoneOnline())
      if (online.opLevel >= ADMIN_LEVEL) notify(online.uuid, notice(player));
  });
  options.lifecycles.register({
    onJoin: (playerId) => {
      if (isAdmin(playerId)) for (const player of damaged.list()) notify(playerId, notice(player));
    },
  });
};

/**
 * Puts the newest kept copy of an offline player's file back once an admin mended it: the copy must read as a
 * player file whose every entry the installed features' codecs accept; the file it replaces is kept aside too.
 * The notice then closes. What the server keeps elsewhere still holds: a day in the check-in ledger stays
 * claimed and a delivery's event id stays used, so a restored copy never pays anything twice.
 */
export const restorePlayerFile = async (options: {
  readonly damaged: DamagedPlayerFiles;
  readonly store: FileAgentStore;
  readonly players: PlayerDirectory;
  readonly storages: readonly AnyModuleStorage[];
  readonly playerId: string;
}): Promise<RestoreOutcome> => {
  const { damaged, store, playerId } = options;
  const copy = damaged.get(playerId)?.kept.at(-1);
  if (copy === undefined) return { kind: "none" };
  if (options.players.isOnline(playerId)) return { kind: "online" };
  let record: Validation<PlayerRecord>;
  try {
    record = await store.readCopy(playerId, copy);
  } catch (error) {
    return { kind: "damaged", copy, reason: error instanceof Error ? error.message : String(error) };
  }
  if (!record.success) return { kind: "damaged", copy, reason: record.error };
  for (const declared of options.storages) {
    const stored = record.value.moduleData[declared.owner.toString()]?.[declared.type];
    if (stored === undefined || stored.codec !== declared.codecId.toString()) continue;
    try {
      declared.create(stored.data);
    } catch (error) {
      return { kind: "damaged", copy, reason: error instanceof Error ? error.message : String(error) };
    }
  }
  const replaced = await store.restore(playerId, copy);
  await damaged.forget(playerId);
  return { kind: "restored", copy, replaced };
};
