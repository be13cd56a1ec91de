import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentResult } from "../../src/agent/agent-result.js";
import { buildCard } from "../../src/agent/card/card-type.js";
import type { ExecutionRequest } from "../../src/agent/execution/agent-engine.js";
import type { AgentAction } from "../../src/agent/module/action-type.js";
import { translatable } from "../../src/agent/text.js";
import { formatText } from "../../src/agent/text-format.js";
import { type AssistantParts, assembleAssistant } from "../../src/assistant/assistant-assembly.js";
import { BUILTIN_PACK_ROOT } from "../../src/data/prompts/prompt-store.js";
import type { GameClock } from "../../src/game/context-types.js";
import { ItemCatalog } from "../../src/game/data/item-catalog.js";
import { ItemSources } from "../../src/game/data/item-sources.js";
import { MemoryGameBridge } from "../../src/game/tools/memory-game-bridge.js";
import type { AnyServerModuleType } from "../../src/module/server-module.js";
import { readSystemModuleEntries } from "../../src/module/system-module-entries.js";
import { Identifier } from "../../src/util/identifier.js";
import { MemoryLogger } from "../../src/util/logger.js";

/** The repository's resources folder (data packs and language files). */
export const RESOURCES = fileURLToPath(new URL("../../resources", import.meta.url));

let catalog: ItemCatalog | undefined;
let sources: ItemSources | undefined;
/** The 1.21.4 item data, loaded once per test file. */
export const itemData = (): { catalog: ItemCatalog; sources: ItemSources } => {
  catalog ??= ItemCatalog.forVersion("1.21.4");
  sources ??= new ItemSources(catalog.data, catalog);
  return { catalog, sources };
};

/** A settable clock in a fixed zone. */
export class TestClock implements GameClock {
  constructor(
    public millis: number,
    readonly timeZone = "Asia/Shanghai",
  ) {}
  now(): number {
    return this.millis;
  }
}

/** One feature entry of the test's data pack: `{ id, server }`; the type defaults to the id. */
export interface HarnessEntry {
  readonly id: string;
  readonly type?: string;
  readonly server?: unknown;
}

export interface HarnessOptions {
  /** The features on for this server, as data-pack entries; every other built-in feature is switched off. */
  readonly entries: readonly HarnessEntry[];
  /** Feature types the server embeds besides the built-in ones (an extension's). */
  readonly extraTypes?: readonly AnyServerModuleType[];
  /** A data directory to reuse (a restart on the same files); a new temp folder otherwise. */
  readonly world?: string;
  readonly clock?: TestClock;
  readonly bridge?: MemoryGameBridge;
  /** `SYSTEM_MODEL_*` settings (a model server); no model when absent. */
  readonly environment?: Readonly<Record<string, string>>;
}

/**
 * The shipped assembly (`assembleAssistant`, what `startSystem` builds) without the game server: every service,
 * store and executor is the server's own, on files in a temp data directory, with an in-process game
 * (MemoryGameBridge). The test's entries are a server data pack; built-in features it does not list are
 * switched off in that pack, as an admin would.
 */
export class GameHarness {
  readonly logger: MemoryLogger;
  /** Results the server would show its players as notices (settled event tasks). */
  readonly notices: { readonly playerId: string; readonly result: AgentResult }[];
  private constructor(
    /** The data directory (config, data packs and the world's `system` folder); pass it back to restart. */
    readonly world: string,
    readonly parts: AssistantParts,
    readonly bridge: MemoryGameBridge,
    readonly clock: TestClock,
    logger: MemoryLogger,
    notices: { readonly playerId: string; readonly result: AgentResult }[],
  ) {
    this.logger = logger;
    this.notices = notices;
  }

  static async create(options: HarnessOptions): Promise<GameHarness> {
    const folder = options.world ?? (await mkdtemp(join(tmpdir(), "system-game-")));
    const packRoot = join(folder, "datapacks");
    writeDataPack(packRoot, options.entries);
    const bridge = options.bridge ?? new MemoryGameBridge();
    const clock = options.clock ?? new TestClock(Date.UTC(2026, 11, 2, 4, 0, 0));
    const logger = new MemoryLogger();
    const notices: { playerId: string; result: AgentResult }[] = [];
    const parts = await assembleAssistant(
      {
        paths: { dataDir: folder, world: join(folder, "world"), packRoots: [packRoot] },
        bridge,
        logger,
        clock,
        environment: options.environment ?? {},
        ...(options.extraTypes === undefined ? {} : { extraTypes: options.extraTypes }),
      },
      (playerId, result) => void notices.push({ playerId, result }),
    );
    await parts.events.start();
    return new GameHarness(folder, parts, bridge, clock, logger, notices);
  }

  get engine() {
    return this.parts.infrastructure.engine;
  }
  get journal() {
    return this.parts.infrastructure.journal;
  }
  get store() {
    return this.parts.infrastructure.store;
  }
  get events() {
    return this.parts.events;
  }
  get manager() {
    return this.parts.modules;
  }
  get cards() {
    return this.parts.infrastructure.cards;
  }
  get languages() {
    return this.parts.infrastructure.languages;
  }

  /** The features this player has now (the server's permission snapshot). */
  features(playerId: string): Set<string> {
    return new Set(this.parts.permissions.snapshot(playerId).features);
  }

  /** An admin turns one feature off for one player (`/system revoke <player> <feature>` stores the same). */
  async disable(playerId: string, feature: string): Promise<void> {
    await this.parts.permissions.update(playerId, (current) => ({
      ...current,
      features: { ...current.features, [feature]: false },
    }));
  }

  request(playerId: string, locale = "en_us"): ExecutionRequest {
    return {
      requestId: `r-${Math.random().toString(36).slice(2)}`,
      playerId,
      locale,
      features: this.features(playerId),
    };
  }

  /** Parses a line through the engine's command tree and runs the action (what the host does for `/system …`). */
  async command(playerId: string, text: string, locale = "en_us"): Promise<AgentResult> {
    const snapshot = this.parts.permissions.snapshot(playerId);
    const outcome = await this.engine
      .modules()
      .commands()
      .parse(text, { playerId, permissionLevel: snapshot.opLevel, features: snapshot.features });
    if (outcome.kind !== "action")
      throw new Error(`"${text}" is not a command here: ${JSON.stringify(outcome)}`);
    return this.engine.execute(outcome.action, this.request(playerId, locale));
  }

  run(action: AgentAction, playerId: string, locale = "en_us"): Promise<AgentResult> {
    return this.engine.execute(action, this.request(playerId, locale));
  }

  /** The result's card as a player reads it: template and arguments formatted, then the button labels. */
  render(
    result: AgentResult,
    locale = "en_us",
  ): { text: string; buttons: { label: string; action: string; args: readonly string[] }[] } {
    const presentation = result.presentation;
    if (presentation === undefined) throw new Error("the result has no card");
    const decoded = this.cards.decode(presentation);
    if (!decoded.success) throw new Error(decoded.error);
    const view = buildCard(decoded.value).build();
    return {
      text: formatText(this.languages, locale, translatable(view.template, ...view.arguments)),
      buttons: view.buttons.map((button) => ({
        label: formatText(this.languages, locale, translatable(button.labelKey, ...(button.labelArgs ?? []))),
        action: button.action,
        args: button.args,
      })),
    };
  }

  /** Stops as the server does (event tasks settle, files flushed and closed); the folder stays when asked. */
  async close(removeWorld = true): Promise<void> {
    const { infrastructure, interactive, modules, events } = this.parts;
    await events.whenIdle();
    await infrastructure.tasks.shutdown();
    await interactive.flush();
    await infrastructure.store.flush();
    await infrastructure.store.close();
    await infrastructure.journal.close();
    if (infrastructure.ownsStorage) await infrastructure.storage.close();
    await modules.close();
    if (removeWorld) await rm(this.world, { recursive: true, force: true });
  }
}

/**
 * Writes the test's entries as a server data pack (`data/<namespace>/system_module/<path>.json`) and switches
 * off every built-in entry it does not list (`enabled: false` over the built-in pack, as an admin's pack does).
 */
const writeDataPack = (root: string, entries: readonly HarnessEntry[]): void => {
  const write = (id: string, content: unknown): void => {
    const identifier = Identifier.parse(id);
    const folder = join(root, "data", identifier.namespace, "system_module");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `${identifier.path}.json`), JSON.stringify(content));
  };
  const listed = new Set(entries.map((entry) => Identifier.parse(entry.id).toString()));
  for (const builtin of readSystemModuleEntries([BUILTIN_PACK_ROOT], new MemoryLogger()))
    if (!listed.has(builtin.id.toString()))
      write(builtin.id.toString(), { type: builtin.type.toString(), enabled: false });
  for (const entry of entries) write(entry.id, { type: entry.type ?? entry.id, server: entry.server ?? {} });
};
