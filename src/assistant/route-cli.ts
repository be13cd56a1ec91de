import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { explainDecision } from "../agent/routing/route-explanation.js";
import type { SemanticMatch } from "../agent/routing/semantic-router.js";
import { systemClock } from "../game/context-types.js";
import { MemoryGameBridge } from "../game/tools/memory-game-bridge.js";
import type { Json } from "../util/codec.js";
import { silentLogger } from "../util/logger.js";
import { offlineUuid } from "../util/offline-uuid.js";
import { AssistantServer } from "./assistant-server.js";
import { loadExtensions } from "./extension-loader.js";
import type { PlayerInfo } from "./player-directory.js";
import { fitReport, parseLabelled, type RoutedLine } from "./route-fit.js";

/** Output streams of a CLI subcommand (same shape as src/cli.ts's CliIo). */
export interface RouteCliIo {
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
  /** Lines for `--stdin`. */
  readonly input?: NodeJS.ReadableStream;
}

const USAGE = [
  'usage: system route "<text>" | --stdin [--player NAME] [--locale zh_cn|en_us] [--op LEVEL] [--data-dir DIR] [--pack DATAPACK_DIR]... [--quests QUEST_DIR]',
  "       system route fit <labelled.tsv> [--data-dir DIR] [--pack DATAPACK_DIR]... [--quests QUEST_DIR]",
].join("\n");

/** The options of `npx system route` (one session: player, locale, op level, data directory, packs, quests). */
export interface RouteArgs {
  readonly words: readonly string[];
  readonly stdin: boolean;
  readonly player: string;
  readonly locale: string;
  readonly opLevel: number;
  readonly packs: readonly string[];
  readonly dataDir: string | undefined;
  /** An FTB Quests folder for the quest workflows (over the data directory's own). */
  readonly quests?: string | undefined;
}

const VALUED = new Set(["--player", "--locale", "--op", "--pack", "--data-dir", "--quests"]);

const parseArgs = (args: readonly string[]): RouteArgs | string => {
  const words: string[] = [];
  let player = "Player";
  let locale = "en_us";
  let opLevel = 0;
  let stdin = false;
  let dataDir: string | undefined;
  let quests: string | undefined;
  const packs: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? "";
    const value = args[index + 1];
    if (arg === "--stdin") stdin = true;
    else if (VALUED.has(arg)) {
      if (value === undefined) return `${arg} needs a value`;
      index++;
      if (arg === "--player") player = value;
      else if (arg === "--pack") packs.push(resolve(value));
      else if (arg === "--data-dir") dataDir = resolve(value);
      else if (arg === "--quests") quests = resolve(value);
      else if (arg === "--op") {
        opLevel = Number.parseInt(value, 10);
        if (!/^[0-4]$/.test(value)) return "--op must be 0..4";
      } else if (value === "zh_cn" || value === "en_us") locale = value;
      else return "--locale must be zh_cn or en_us";
    } else if (arg.startsWith("--")) return `unknown option ${arg}`;
    else words.push(arg);
  }
  return { words, stdin, player, locale, opLevel, packs, dataDir, quests };
};

/** A data pack (in the scratch folder) pointing the quests feature at `questFolder`; the last pack root wins. */
const questsPack = async (folder: string, questFolder: string): Promise<string> => {
  const root = join(folder, "quests-pack");
  const modules = join(root, "data", "system", "system_module");
  await mkdir(modules, { recursive: true });
  await writeFile(
    join(modules, "ftb_quests.json"),
    JSON.stringify({ type: "system:ftb_quests", server: { folder: questFolder } }),
  );
  return root;
};

/** One assembled assistant (no model) and one joined player, routing texts as the server would. */
export class RouteSession {
  private constructor(
    readonly server: AssistantServer,
    private readonly player: PlayerInfo,
    private readonly folder: string,
  ) {}

  static async open(args: RouteArgs): Promise<RouteSession> {
    const folder = await mkdtemp(join(tmpdir(), "system-route-"));
    // A data dir gives its config and data packs; the world is a scratch copy so a running server is untouched.
    const base =
      args.dataDir === undefined
        ? { dataDir: folder, packRoots: [] }
        : { dataDir: args.dataDir, packRoots: [join(args.dataDir, "datapacks")] };
    const extensions =
      args.dataDir === undefined
        ? { types: [], services: [], packRoots: [] }
        : await loadExtensions(args.dataDir, silentLogger);
    const quests = args.quests === undefined ? [] : [await questsPack(folder, args.quests)];
    const bridge = new MemoryGameBridge();
    const server = await AssistantServer.create({
      clock: systemClock(),
      extraTypes: extensions.types,
      services: extensions.services,
      paths: {
        dataDir: base.dataDir,
        world: join(folder, "world"),
        packRoots: [...extensions.packRoots, ...base.packRoots, ...args.packs, ...quests],
      },
      bridge,
      logger: silentLogger,
      environment: {},
    });
    const player: PlayerInfo = {
      uuid: offlineUuid(args.player),
      name: args.player,
      locale: args.locale,
      opLevel: args.opLevel,
    };
    bridge.join(player.uuid, player.name);
    await server.join(player);
    return new RouteSession(server, player, folder);
  }

  #routingPlayer() {
    const snapshot = this.server.permissions.snapshot(this.player.uuid);
    return {
      playerId: this.player.uuid,
      permissionLevel: snapshot.opLevel,
      features: snapshot.features,
      locale: this.player.locale,
      aiEnabled: false,
      generation: 0,
    };
  }

  async explain(text: string): Promise<{ [key: string]: Json }> {
    const decision = await this.server.router.route({
      requestId: "route-cli",
      text,
      player: this.#routingPlayer(),
    });
    return { text, ...explainDecision(decision) };
  }

  /** The decision with the configured thresholds, and the local match with every threshold at zero. */
  async measure(text: string): Promise<RoutedLine> {
    const router = this.server.router;
    const player = this.#routingPlayer();
    const decision = await router.route({ requestId: "route-fit", text, player });
    const free: SemanticMatch = await router.semantic.match(
      text,
      (module) => router.available(player, module),
      { minSimilarity: 0, minMargin: 0, minCoverage: 0 },
    );
    const top = free.candidates[0];
    return {
      text,
      command: decision.source === "COMMAND" ? (decision.module?.id.toString() ?? null) : undefined,
      direct: free.direct?.module.id.toString(),
      top: top?.moduleId,
      similarity: top?.similarity ?? 0,
      margin: free.margin,
      coverage: free.coverage,
    };
  }

  thresholds() {
    return this.server.infrastructure.semanticConfig.get();
  }

  async close(): Promise<void> {
    await this.server.close();
    await rm(this.folder, { recursive: true, force: true });
  }
}

/**
 * `npx system route "<text>"` routes one text through the built-in module set (no model) and prints the decision
 * with its evidence as one JSON object; `--stdin` routes one text per input line in one process, one JSON line
 * each; `fit <labelled.tsv>` measures a labelled set over a grid of thresholds. Resolves to the exit code
 * (0 done, 1 unreadable file, 2 usage error).
 */
export const routeCommand = async (args: readonly string[], io: RouteCliIo): Promise<number> => {
  const fit = args[0] === "fit";
  const parsed = parseArgs(fit ? args.slice(1) : args);
  const text = typeof parsed === "string" ? "" : parsed.words.join(" ").trim();
  const problem =
    typeof parsed === "string"
      ? parsed
      : fit
        ? parsed.words.length !== 1
          ? "fit needs one labelled file"
          : undefined
        : parsed.stdin && text !== ""
          ? "give a text or --stdin, not both"
          : !parsed.stdin && text === ""
            ? "no text to route"
            : undefined;
  if (typeof parsed === "string" || problem !== undefined) {
    io.err.write(`${problem}\n${USAGE}\n`);
    return 2;
  }
  let labelled: ReturnType<typeof parseLabelled> | undefined;
  if (fit) {
    try {
      labelled = parseLabelled(await readFile(parsed.words[0] ?? "", "utf8"));
    } catch (error) {
      io.err.write(`${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  }
  const session = await RouteSession.open(parsed);
  try {
    if (labelled !== undefined) {
      const routed: RoutedLine[] = [];
      for (const line of labelled) routed.push(await session.measure(line.text));
      io.out.write(fitReport(labelled, routed, session.thresholds()));
    } else if (parsed.stdin) {
      const lines = createInterface({
        input: io.input ?? process.stdin,
        crlfDelay: Number.POSITIVE_INFINITY,
      });
      for await (const line of lines) {
        if (line.trim() === "") continue;
        io.out.write(`${JSON.stringify(await session.explain(line.trim()))}\n`);
      }
    } else io.out.write(`${JSON.stringify(await session.explain(text))}\n`);
    return 0;
  } finally {
    await session.close();
  }
};
