import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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

/** `node --import tsx src/main.ts --port 0 --data-dir <dir>`, as `npm start`; resolves on `listening on`. */
export const startServer = async (dataDir: string): Promise<Server> => {
  // no welcome kit (an advancement rule): the loops count what their own feature gives
  const advancements = join(dataDir, "config", "system", "advancements.json");
  if (!existsSync(advancements)) {
    mkdirSync(join(dataDir, "config", "system"), { recursive: true });
    writeFileSync(advancements, JSON.stringify({ rules: [] }));
  }
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "src/main.ts", "--port", "0", "--data-dir", dataDir],
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
