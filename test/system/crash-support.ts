import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { decodeFrames } from "../../src/data/store/record-frame.js";
import { serverBundle } from "./server-bundle.js";
import { type ChatMessage, command, joinBot, type Player, recordChat, waitFor } from "./system-support.js";

export { held } from "./system-support.js";

/** Helpers of the SIGKILL loops: the real server in a child process, exactly as `npm start` runs it. */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * `SYSTEM_KILL_LOOPS=long` runs the long loops (`npm run bench -- kill-loops`); `npm test` runs short ones whose
 * modes still cover every window (the kill moments that matter wait on server state, not on luck).
 */
export const LONG_LOOPS = process.env.SYSTEM_KILL_LOOPS === "long";

/** A loop's rounds: its own variable when set, else the short or the long size. */
export const loopSize = (short: number, long: number, override?: string): number =>
  Number(override ?? (LONG_LOOPS ? long : short));

/** A loop's time limit: a minute per round (a start, a settle, a kill) on a loaded machine, and its last restarts. */
export const loopTimeout = (rounds: number): number => (rounds + 3) * 60_000;

/** The seed of a loop's random kill moments and names: `SYSTEM_KILL_SEED` replays a run. Printed at once. */
export const loopSeed = (label: string): number => {
  const seed = Number(process.env.SYSTEM_KILL_SEED ?? Date.now() % 100_000);
  console.log(`${label}: seed ${seed} (replay with SYSTEM_KILL_SEED=${seed})`);
  return seed;
};

/** The journal record of a give step that has begun (its receipt is RUNNING until the items are saved). */
export const GIVE_BEGUN = '"tool":"system:game.give_items","state":"RUNNING"';

/** The latest record of every event task and step receipt in a journal folder (its snapshot and log files). */
interface JournalView {
  readonly events: Map<string, { readonly playerId: string; readonly type: string; readonly state: string }>;
  readonly steps: Map<string, { readonly tool: string; readonly state: string }>;
}

const readJournal = (journal: string): JournalView => {
  const view: JournalView = { events: new Map(), steps: new Map() };
  const files = existsSync(journal) ? readdirSync(journal) : [];
  const ordered = [
    ...files.filter((name) => name === "snapshot.bin"),
    ...files.filter((name) => /^journal-\d+\.log$/.test(name)).sort(),
  ];
  for (const name of ordered)
    for (const payload of decodeFrames(readFileSync(join(journal, name))).payloads) {
      const record = JSON.parse(payload.toString("utf8")) as Record<string, unknown>;
      if (record.t === "event")
        view.events.set(String(record.id), {
          playerId: String(record.playerId),
          type: String(record.type),
          state: String(record.state),
        });
      else if (record.t === "step")
        view.steps.set(String(record.key), { tool: String(record.tool), state: String(record.state) });
    }
  return view;
};

/** The latest state of each event task of a player in the journal (its snapshot and log files). */
export const eventStates = (journal: string, playerId: string): Map<string, string> => {
  const states = new Map<string, string>();
  for (const [id, task] of readJournal(journal).events)
    if (task.playerId === playerId) states.set(id, task.state);
  return states;
};

const UNFINISHED = new Set(["QUEUED", "RUNNING", "WAITING"]);

/**
 * Where a kill landed for a player's delivery, read from the journal the killed server left (the kill loops'
 * coverage): `give-running` between a give step's RUNNING receipt and its DONE (the window under test);
 * `give-done` after DONE, before the task ended; `queued` with a task not yet giving; `settled` once every task
 * ended; `none` with no task at all (not recorded yet, or recorded and not queued: the player file tells which).
 */
export type KillWindow = "none" | "queued" | "give-running" | "give-done" | "settled";

export const killWindow = (journal: string, playerId: string, workflows: readonly string[]): KillWindow => {
  const view = readJournal(journal);
  const ids = [...view.events]
    .filter(([, task]) => task.playerId === playerId && workflows.includes(task.type))
    .map(([id]) => id);
  if (ids.length === 0) return "none";
  const gives = [...view.steps].filter(
    ([key, step]) =>
      step.tool === "system:game.give_items" && ids.some((id) => key.startsWith(`event:${id}/`)),
  );
  if (gives.some(([, step]) => step.state === "RUNNING")) return "give-running";
  const unfinished = ids.some((id) => UNFINISHED.has(view.events.get(id)?.state ?? ""));
  if (unfinished) return gives.some(([, step]) => step.state === "DONE") ? "give-done" : "queued";
  return "settled";
};

/** Counts of kill windows over a loop, with its coverage line. */
export class KillCoverage {
  readonly #counts = new Map<string, number>();

  add(window: string): void {
    this.#counts.set(window, (this.#counts.get(window) ?? 0) + 1);
  }

  count(window: string): number {
    return this.#counts.get(window) ?? 0;
  }

  get kills(): number {
    return [...this.#counts.values()].reduce((sum, count) => sum + count, 0);
  }

  toString(): string {
    return [...this.#counts]
      .sort(([left], [right]) => left.localeCompare(right))
      .map(([window, count]) => `${window} ${count}`)
      .join(", ");
  }
}

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

/**
 * `node <bundle> --port 0 --data-dir <dir>`: what `npm start` runs, from the prebuilt bundle of src/main.ts
 * (see server-bundle.ts); resolves on `listening on`. The web panel takes a free port.
 */
export const startServer = async (dataDir: string): Promise<Server> => {
  const config = join(dataDir, "config", "system");
  mkdirSync(config, { recursive: true });
  // no welcome kit (an advancement rule): the loops count what their own feature gives
  if (!existsSync(join(config, "advancements.json")))
    writeFileSync(join(config, "advancements.json"), JSON.stringify({ rules: [] }));
  if (!existsSync(join(config, "panel.json")))
    writeFileSync(join(config, "panel.json"), JSON.stringify({ enabled: true, host: "127.0.0.1", port: 0 }));
  const child = spawn(process.execPath, [await serverBundle(), "--port", "0", "--data-dir", dataDir], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, SYSTEM_MODEL_BASE_URL: "", SYSTEM_MODEL: "" },
  });
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

/**
 * A bot that outlives its server: a dropped connection is expected here, not an error. Its chat is recorded from
 * before it spawns: a warm server can send a join's notices before the client reports the spawn.
 */
export const enter = async (port: number, name: string): Promise<Player> => {
  let chat: ChatMessage[] = [];
  const bot = await joinBot(port, name, (created) => {
    chat = recordChat(created);
  });
  bot.on("error", () => {});
  return {
    bot,
    chat,
    say: (line, match, timeoutMillis) => command(bot, chat, line, match, timeoutMillis),
    next: async (match, timeoutMillis = 20_000) => {
      const found = await nextMessage(chat, 0, match, timeoutMillis);
      if (found === undefined)
        throw new Error(`no matching message; got ${JSON.stringify(chat.map((message) => message.text))}`);
      return found;
    },
    quit: () => bot.quit(),
  };
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

/**
 * Waits until a give step begins after the `begun` ones: the moment to kill mid-give. Throws after 10 s: a loop
 * never kills blind when the moment it waits for did not come.
 */
export const untilGiveBegins = async (journal: string, begun: number): Promise<void> => {
  const deadline = Date.now() + 10_000;
  while (givesBegun(journal) === begun) {
    if (Date.now() > deadline) throw new Error("no give step began within 10 s; the kill would have missed");
    await new Promise((resolve) => setImmediate(resolve));
  }
};

/** Like nextMessage, but throws when nothing matched in time (a wait before a kill never times out silently). */
export const mustArrive = async (
  chat: readonly ChatMessage[],
  from: number,
  match: (message: ChatMessage) => boolean,
  what: string,
  millis = 20_000,
): Promise<ChatMessage> => {
  const found = await nextMessage(chat, from, match, millis);
  if (found === undefined)
    throw new Error(
      `${what} within ${millis} ms; got ${JSON.stringify(chat.slice(from).map((m) => m.text))}`,
    );
  return found;
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
