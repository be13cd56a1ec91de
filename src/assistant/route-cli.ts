import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { explainDecision } from "../agent/routing/route-explanation.js";
import { MemoryGameBridge } from "../game/tools/memory-game-bridge.js";
import { silentLogger } from "../util/logger.js";
import { offlineUuid } from "../util/offline-uuid.js";
import { AssistantServer } from "./assistant-server.js";
import type { PlayerInfo } from "./player-directory.js";

/** Output streams of a CLI subcommand (same shape as src/cli.ts's CliIo). */
export interface RouteCliIo {
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
}

const USAGE =
  'usage: system route "<text>" [--player NAME] [--locale zh_cn|en_us] [--op LEVEL] [--pack DATAPACK_DIR]...';

interface RouteArgs {
  readonly text: string;
  readonly player: string;
  readonly locale: string;
  readonly opLevel: number;
  readonly packs: readonly string[];
}

const parseArgs = (args: readonly string[]): RouteArgs | string => {
  const words: string[] = [];
  let player = "Player";
  let locale = "en_us";
  let opLevel = 0;
  const packs: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? "";
    const value = args[index + 1];
    if (arg === "--player" || arg === "--locale" || arg === "--op" || arg === "--pack") {
      if (value === undefined) return `${arg} needs a value`;
      index++;
      if (arg === "--player") player = value;
      else if (arg === "--pack") packs.push(resolve(value));
      else if (arg === "--op") {
        opLevel = Number.parseInt(value, 10);
        if (!/^[0-4]$/.test(value)) return "--op must be 0..4";
      } else if (value === "zh_cn" || value === "en_us") locale = value;
      else return "--locale must be zh_cn or en_us";
    } else if (arg.startsWith("--")) return `unknown option ${arg}`;
    else words.push(arg);
  }
  const text = words.join(" ").trim();
  if (text.length === 0) return "no text to route";
  return { text, player, locale, opLevel, packs };
};

/**
 * `npx system route "<text>"`: routes one text through the built-in module set (no model, fresh temp folder) and
 * prints the decision with its evidence as one JSON object, so admins can tune samples and thresholds.
 * Resolves to the exit code (0 routed, 2 usage error).
 */
export const routeCommand = async (args: readonly string[], io: RouteCliIo): Promise<number> => {
  const parsed = parseArgs(args);
  if (typeof parsed === "string") {
    io.err.write(`${parsed}\n${USAGE}\n`);
    return 2;
  }
  const folder = await mkdtemp(join(tmpdir(), "system-route-"));
  let server: AssistantServer | undefined;
  try {
    const bridge = new MemoryGameBridge();
    server = await AssistantServer.create({
      paths: { dataDir: folder, world: join(folder, "world"), packRoots: parsed.packs },
      bridge,
      logger: silentLogger,
      environment: {},
    });
    const player: PlayerInfo = {
      uuid: offlineUuid(parsed.player),
      name: parsed.player,
      locale: parsed.locale,
      opLevel: parsed.opLevel,
    };
    bridge.join(player.uuid, player.name);
    await server.join(player);
    const snapshot = server.permissions.snapshot(player.uuid);
    const decision = await server.router.route({
      requestId: "route-cli",
      text: parsed.text,
      player: {
        playerId: player.uuid,
        permissionLevel: snapshot.opLevel,
        features: snapshot.features,
        locale: parsed.locale,
        aiEnabled: false,
        generation: 0,
      },
    });
    io.out.write(`${JSON.stringify({ text: parsed.text, ...explainDecision(decision) })}\n`);
    return 0;
  } finally {
    await server?.close();
    await rm(folder, { recursive: true, force: true });
  }
};
