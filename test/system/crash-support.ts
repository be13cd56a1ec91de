import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { decodeFrames } from "../../src/data/store/record-frame.js";
import { type ChatMessage, joinPlayer, type Player, waitFor } from "./system-support.js";

export { held } from "./system-support.js";

/** Helpers of the SIGKILL loops: the real server in a child process, exactly as `npm start` runs it. */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The journal record of a give step that has begun (its receipt is RUNNING until the items are saved). */
export const GIVE_BEGUN = '"tool":"system:game.give_items","state":"RUNNING"';

/** The latest state of each event task of a player in the journal (its snapshot and log files). */
export const eventStates = (journal: string, playerId: string): Map<string, string> => {
  const states = new Map<string, string>();
  const files = existsSync(journal) ? readdirSync(journal) : [];
  const ordered = [
    ...files.filter((name) => name === "snapshot.bin"),
    ...files.filter((name) => /^journal-\d+\.log$/.test(name)).sort(),
  ];
  for (const name of ordered)
    for (const payload of decodeFrames(readFileSync(join(journal, name))).payloads) {
      const record = JSON.parse(payload.toString("utf8")) as Record<string, unknown>;
      if (record.t === "event" && record.playerId === playerId)
        states.set(String(record.id), String(record.state));
    }
  return states;
};

/** Whether the journal holds an unfinished (QUEUED, RUNNING, WAITING) event task of a player: its notice is due. */
export const hasUnfinishedEvent = (journal: string, playerId: string): boolean =>
  [...eventStates(journal, playerId).values()].some((state) =>
    ["QUEUED", "RUNNING", "WAITING"].includes(state),
  );

/** How many give steps the journal has seen begin (its log files, read as text: records are JSON frames). */
export const givesBegun = (journal: string): number => {
  if (!existsSync(journal)) return 0;
  let count = 0;
  for (const name of readdirSync(journal).filter((file) => /^journal-\d+\.log$/.test(file)))
    count += readFileSync(join(journal, name), "latin1").split(GIVE_BEGUN).length - 1;
  return count;
};

export interface Server {
  readonly child: ChildProcess;
  readonly port: number;
  output(): string;
  readonly exited: Promise<unknown>;
}

export const running = new Set<ChildProcess>();

/** `node --import tsx src/main.ts --port 0 --panel-port 0 --data-dir <dir>`, as `npm start`; resolves on `listening on`. */
export const startServer = async (dataDir: string): Promise<Server> => {
  // no welcome kit (an advancement rule): the loops count what their own feature gives
  const advancements = join(dataDir, "config", "system", "advancements.json");
  if (!existsSync(advancements)) {
    mkdirSync(join(dataDir, "config", "system"), { recursive: true });
    writeFileSync(advancements, JSON.stringify({ rules: [] }));
  }
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "src/main.ts", "--port", "0", "--panel-port", "0", "--data-dir", dataDir],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, SYSTEM_MODEL_BASE_URL: "", SYSTEM_MODEL: "" },
    },
  );
  running.add(child);
  let output = "";
  const append = (chunk: Buffer): void => {
    output += chunk.toString("utf8");
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  void exited.then(() => running.delete(child));
  const port = await waitFor(() => {
    if (child.exitCode !== null) throw new Error(`the server exited during start:\n${output}`);
    return /listening on 127\.0\.0\.1:(\d+)/.exec(output)?.[1];
  }, 60_000);
  return { child, port: Number(port), output: () => output, exited };
};

export const kill = async (server: Server): Promise<void> => {
  server.child.kill("SIGKILL");
  await server.exited;
};

/** A bot that outlives its server: a dropped connection is expected here, not an error. */
export const enter = async (port: number, name: string): Promise<Player> => {
  const player = await joinPlayer(port, name);
  player.bot.on("error", () => {});
  return player;
};

export const sleep = (millis: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, millis));

/** Waits for a chat message after `from` that matches, or undefined after `millis`. */
export const nextMessage = async (
  chat: readonly ChatMessage[],
  from: number,
  match: (message: ChatMessage) => boolean,
  millis: number,
): Promise<ChatMessage | undefined> => {
  const deadline = Date.now() + millis;
  while (Date.now() < deadline) {
    const found = chat.slice(from).find(match);
    if (found !== undefined) return found;
    await sleep(25);
  }
  return undefined;
};

/** A seeded generator, so the random kill moments of a loop repeat with its seed. */
export const seededRandom = (seed: number): (() => number) => {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
};

/** Waits (at most 10 s) until a give step begins after the `begun` ones: the moment to kill mid-give. */
export const untilGiveBegins = async (journal: string, begun: number): Promise<void> => {
  const deadline = Date.now() + 10_000;
  while (givesBegun(journal) === begun && Date.now() < deadline)
    await new Promise((resolve) => setImmediate(resolve));
};

/** The admin's bot of one server run, joined the first time it is needed. */
export interface AdminBot {
  readonly get: () => Promise<Player>;
  quit(): void;
}

export const adminBot = (port: number): AdminBot => {
  let admin: Promise<Player> | undefined;
  let joined: Player | undefined;
  return {
    get: () => {
      admin ??= enter(port, "Admin").then((player) => {
        joined = player;
        return player;
      });
      return admin;
    },
    quit: () => joined?.quit(),
  };
};

/**
 * After the last kill: a server on the same data, every player still unsettled settled (their delivery arrives or
 * the admin resolves it), and no delivery left unconfirmed. Stops that server.
 */
export const settleLast = async (
  dataDir: string,
  names: string[],
  settle: (port: number, name: string, admin: () => Promise<Player>) => Promise<void>,
  trace: readonly string[],
): Promise<void> => {
  const server = await startServer(dataDir);
  const admin = adminBot(server.port);
  try {
    for (const name of names.splice(0)) await settle(server.port, name, admin.get);
    const leftover = await (await admin.get()).say("/system deliveries", (m) => /nconfirmed/.test(m.text));
    expect(leftover.text, `${trace.join("\n")}\n${server.output()}`).toBe("No unconfirmed deliveries.");
  } finally {
    admin.quit();
    await kill(server);
  }
};
