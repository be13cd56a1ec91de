import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import nbt from "prismarine-nbt";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { KnowledgeDatabase } from "../../src/data/knowledge/knowledge-database.js";
import { systemClock } from "../../src/game/context-types.js";
import { startSystem } from "../../src/host/flying-squid/start-system.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import {
  held,
  joinPlayer,
  type Player,
  quitAndWait,
  type ShippedServer,
  startShipped,
  tempFolder,
  waitFor,
} from "./system-support.js";

/**
 * "Corrupt files never lose data silently": the real server, started exactly as `npm start` does, over a data
 * directory holding one damaged file. Files that hold decisions or records refuse the start, naming the file
 * and leaving its bytes on disk; a damaged knowledge database only disables the knowledge feature (a copy of it is
 * kept); a damaged player file is kept aside and the player goes on (below).
 */
let dir: string;
let logger: MemoryLogger;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "system-corrupt-"));
  logger = new MemoryLogger();
  await place(join(dir, "config", "system", "server.json"), JSON.stringify({ generation: "superflat" }));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const place = async (path: string, bytes: string | Buffer): Promise<void> => {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
};

const start = () =>
  startSystem({
    clock: systemClock(),
    argv: ["--port", "0", "--panel-port", "0", "--data-dir", dir],
    environment: {},
    logger,
    announce: () => {},
  });

/** Starts the server and expects it to refuse; returns the error message. */
const refusal = async (): Promise<string> => {
  const outcome = await start().then(
    async (system) => {
      await system.close();
      return undefined;
    },
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  expect(outcome, "the server started over a corrupt file").toBeDefined();
  return outcome ?? "";
};

describe("corrupt files at start", () => {
  it("a journal log with an unreadable header: refused, the log kept aside with its bytes", async () => {
    const folder = join(dir, "world", "system", "journal");
    const log = join(folder, "journal-0.log");
    const bytes = randomBytes(512);
    await place(log, bytes);
    const message = await refusal();
    expect(message).toContain(log);
    expect(message).toContain("unreadable header");
    const aside = (await readdir(folder)).filter((name) => name.startsWith("journal-0.log.corrupt-"));
    expect(aside).toHaveLength(1);
    expect(message).toContain(join(folder, aside[0] ?? ""));
    expect(await readFile(join(folder, aside[0] ?? ""))).toEqual(bytes);
  });

  it("a truncated access.json: refused, naming the file; the file is not replaced by defaults", async () => {
    const path = join(dir, "config", "system", "access.json");
    const text =
      '{"aiByDefault": false, "defaultMode": "routing", "players": {"uuid-steve": {"features": {"sys';
    await place(path, text);
    const message = await refusal();
    expect(message).toContain(`${path} is not valid JSON`);
    expect(await readFile(path, "utf8")).toBe(text);
  });

  it("an invalid server.json: refused, naming the file and the field, never replaced by a default world", async () => {
    const path = join(dir, "config", "system", "server.json");
    const text = JSON.stringify({ generation: "superflat", worldFolder: "/srv/my-world", port: "twenty" });
    await place(path, text);
    const message = await refusal();
    expect(message).toContain(path);
    expect(message).toContain("port");
    expect(await readFile(path, "utf8")).toBe(text);
  });

  it("a schema-invalid access.json: refused, naming the file and the field", async () => {
    const path = join(dir, "config", "system", "access.json");
    const text = JSON.stringify({ aiByDefault: false, players: { "uuid-steve": { mode: "everything" } } });
    await place(path, text);
    const message = await refusal();
    expect(message).toContain(path);
    expect(message).toContain("players.uuid-steve.mode");
    expect(await readFile(path, "utf8")).toBe(text);
  });

  it("a garbage known-players.json: refused, naming the file; the file is kept as it is", async () => {
    const path = join(dir, "world", "system", "known-players.json");
    const bytes = randomBytes(256);
    await place(path, bytes);
    const message = await refusal();
    expect(message).toContain(path);
    expect(await readFile(path)).toEqual(bytes);
  });

  it("a known-players.json of the wrong shape: refused, naming the file and the field", async () => {
    const path = join(dir, "world", "system", "known-players.json");
    const text = JSON.stringify({ "uuid-alex": "Alex", "uuid-steve": 42 });
    await place(path, text);
    const message = await refusal();
    expect(message).toContain(path);
    expect(message).toContain("uuid-steve");
    expect(await readFile(path, "utf8")).toBe(text);
  });

  it("a corrupt knowledge.sqlite: the server starts without the knowledge feature and says why in one line", async () => {
    const path = join(dir, "world", "system", "knowledge.sqlite");
    const bytes = randomBytes(16_384);
    await place(path, bytes);
    const system = await start();
    try {
      expect(system.assistant.modules.isInstalled("system:knowledge")).toBe(false);
      const lines = logger.lines.filter((line) => line.includes(path));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(
        `knowledge database ${path} is unreadable (file is not a database); a copy is kept at ${path}.corrupt-`,
      );
      expect(lines[0]).toContain("; the knowledge feature is unavailable");
    } finally {
      await system.close();
    }
    expect(await readFile(path)).toEqual(bytes);
  });

  it("a truncated knowledge.sqlite: refused before anything is written, the file left as it is, a copy kept", async () => {
    const path = join(dir, "world", "system", "knowledge.sqlite");
    await mkdir(dirname(path), { recursive: true });
    const database = KnowledgeDatabase.open(path);
    for (let index = 0; index < 400; index++)
      database.add({ title: `Entry ${index}`, body: `body ${index} `.repeat(40), source: "admin" });
    database.close();
    const whole = await readFile(path);
    const truncated = whole.subarray(0, Math.floor(whole.length / 2 / 4096) * 4096);
    await place(path, truncated);
    const system = await start();
    try {
      expect(system.assistant.modules.isInstalled("system:knowledge")).toBe(false);
    } finally {
      await system.close();
    }
    expect(await readFile(path)).toEqual(truncated);
    const copies = (await readdir(dirname(path))).filter((name) =>
      name.startsWith("knowledge.sqlite.corrupt-"),
    );
    expect(copies).toHaveLength(1);
    expect(await readFile(join(dirname(path), copies[0] ?? ""))).toEqual(truncated);
    expect(logger.lines.find((line) => line.includes(path))).toContain(`a copy is kept at ${path}.corrupt-`);
  });
});

/**
 * A corrupt player file never costs a player their state nor pays twice (the shipped server, real bots, real
 * files). Each player checks in and gets 100 points from an admin; the server stops, each player file is damaged
 * in its own way, and the server starts again. Every damaged file is kept aside with its bytes before anything
 * is written in its place; the player keeps what the server knows elsewhere (the check-in ledger: today is
 * claimed, the streak goes on) and cannot check in twice; the admin is told, names the player and the copy, and
 * `/system restore` puts the mended copy back (points and all) once the player is offline.
 */

const GRANT = 100;
/** The root compound of a sound player file, to damage it structurally. */
const parse = async (bytes: Buffer) => (await nbt.parse(bytes, "big")).parsed;
const write = (root: nbt.NBT): Buffer => gzipSync(nbt.writeUncompressed(root, "big"));

/** Damage by player name: what the stopped server's file becomes. */
const DAMAGE: Record<string, (good: Buffer) => Promise<Buffer>> = {
  Garbage: async () => randomBytes(512),
  Truncated: async (good) => good.subarray(0, Math.floor(good.length / 2)),
  Empty: async () => Buffer.alloc(0),
  GzipText: async () => gzipSync(Buffer.from("player: WrongShape, points: lots")),
  NoVersion: async (good) => {
    const root = await parse(good);
    delete root.value.version;
    return write(root);
  },
  WrongShape: async (good) => {
    const root = await parse(good);
    const compound = (tag: nbt.Tags[nbt.TagType] | undefined): nbt.Compound["value"] => {
      if (tag?.type !== "compound") throw new Error("not a compound");
      return tag.value as nbt.Compound["value"];
    };
    const checkIn = compound(compound(compound(root.value.moduleData)["system:check_in"]).check_in);
    checkIn.data = nbt.string(JSON.stringify({ lastDay: 5, streak: "long" }));
    return write(root);
  },
};
const NAMES = Object.keys(DAMAGE);
/** Only the damaged entry goes: the rest of the file (the points) stays. */
const WHOLE_FILE = (name: string): boolean => name !== "WrongShape";

describe("a corrupt player file costs nothing and pays nothing twice", () => {
  let folder: string;
  let server: ShippedServer;
  let admin: Player;
  const good = new Map<string, Buffer>();
  const damaged = new Map<string, Buffer>();
  const file = (name: string): string =>
    join(folder, "world", "system", "players", `${offlineUuid(name)}.dat`);
  const files = {
    // a check-in after the restart must really run (it tells what the server knows), never be replayed
    "config/system/system-agent.json": JSON.stringify({ policies: {}, replayWindowSeconds: 0 }),
  };

  beforeAll(async () => {
    folder = tempFolder("system-corrupt-players-");
    let first = await startShipped({ folder, ops: ["Admin"], files });
    admin = await joinPlayer(first.port, "Admin");
    for (const name of NAMES) {
      const player = await joinPlayer(first.port, name);
      const reply = await player.say("/system checkin", (m) => /Checked in!/.test(m.text));
      expect(reply.text).toMatch(/Streak: 1 day/);
      await waitFor(() => (held(player, "bread") === 3 ? true : undefined));
      await admin.say(`/system points give ${name} ${GRANT}`, (m) =>
        m.text.startsWith(`Gave ${GRANT} points`),
      );
      await quitAndWait(first, player, name);
    }
    admin.quit();
    await first.close();
    for (const name of NAMES) {
      const bytes = await readFile(file(name));
      good.set(name, bytes);
      const broken = await (DAMAGE[name] as (good: Buffer) => Promise<Buffer>)(bytes);
      damaged.set(name, broken);
      await writeFile(file(name), broken);
    }
    first = await startShipped({ folder, ops: ["Admin"], files });
    server = first;
    admin = await joinPlayer(server.port, "Admin");
  }, 240_000);

  afterAll(async () => {
    admin?.quit();
    await server?.close();
  });

  /** The copies kept of a player's file, with their bytes. */
  const kept = async (name: string): Promise<{ path: string; bytes: Buffer }[]> => {
    const folderOf = join(folder, "world", "system", "players");
    const names = (await readdir(folderOf)).filter((entry) =>
      entry.startsWith(`${offlineUuid(name)}.dat.corrupt-`),
    );
    return Promise.all(
      names.map(async (entry) => ({
        path: join(folderOf, entry),
        bytes: await readFile(join(folderOf, entry)),
      })),
    );
  };

  it("keeps every damaged file aside with its bytes and tells the admin, naming the player and the copy", async () => {
    for (const name of NAMES) {
      const player = await joinPlayer(server.port, name);
      // the admin online hears of it at once
      const notice = await admin.next((m) => m.text.includes(`The file of player ${name} was damaged`));
      const copies = await kept(name);
      expect(copies.map((copy) => copy.bytes)).toEqual([damaged.get(name)]);
      expect(notice.text).toContain(copies[0]?.path);
      expect(notice.text).toContain(`/system restore ${name}`);
      await quitAndWait(server, player, name);
    }
    const list = await admin.say("/system restore", (m) => /damaged player files/i.test(m.text));
    for (const name of NAMES) expect(list.text).toContain(`${name} · ${(await kept(name))[0]?.path}`);
  });

  it.each(NAMES)("%s: known elsewhere, never paid twice, restored once mended", async (name) => {
    let player = await joinPlayer(server.port, name);
    try {
      const copies = await kept(name);
      // the day is claimed (check-in ledger) and its streak goes on; no second reward is queued
      const again = await player.say("/system checkin", (m) => /Checked in!|already checked in/.test(m.text));
      expect(again.text).toMatch(
        /^You have already checked in today \(\d{4}-\d{2}-\d{2}\)\. Streak: 1 day\./,
      );
      const deliveries = server.system.assistant.events
        .recent(50, offlineUuid(name))
        .filter((task) => task.type === "system:check_in_delivery");
      expect(deliveries.map((task) => task.state)).toEqual(["SUCCEEDED"]);
      expect(held(player, "bread")).toBe(3);
      const balance = await player.say("/system balance", (m) => /^Your points/.test(m.text));
      // the points were only in the file: back with the restore
      expect(balance.text).toMatch(WHOLE_FILE(name) ? /^Your points: 0\b/ : /^Your points: 110\b/);

      // not restored while the player is online
      const online = await admin.say(`/system restore ${name}`, (m) => m.text.includes("is online"));
      expect(online.text).toContain(`${name} is online: restore their file while they are offline.`);
      await quitAndWait(server, player, name);
      // the assistant has seen the leave too
      await waitFor(() =>
        server.system.assistant.infrastructure.players.isOnline(offlineUuid(name)) ? undefined : true,
      );

      // not mended yet: refused, nothing changed (each line spelled its own way: the same line within
      // seconds would share the earlier answer)
      if (WHOLE_FILE(name)) {
        const refused = await admin.say(`/system restore ${name.toLowerCase()}`, (m) =>
          /still damaged|Restored/.test(m.text),
        );
        expect(refused.text).toContain(`The kept copy ${copies[0]?.path} is still damaged`);
      }
      // the admin mends the copy (here: the file as it was before the damage), then restores it
      await writeFile(copies[0]?.path ?? "", good.get(name) ?? Buffer.alloc(0));
      const restored = await admin.say(`/system restore ${name.toUpperCase()}`, (m) =>
        /Restored|still damaged/.test(m.text),
      );
      expect(restored.text).toMatch(
        new RegExp(
          `^Restored the file of ${name} from .*; the file it replaced is kept at .*\\.replaced-\\d+\\.$`,
        ),
      );
      expect(server.system.assistant.infrastructure.damaged.get(offlineUuid(name))).toBeUndefined();

      player = await joinPlayer(server.port, name);
      // (in Chinese: the same line within seconds would share the earlier answer)
      const points = await player.say("/system 余额", (m) => /^(Your points|你的积分)/.test(m.text));
      expect(points.text).toMatch(/^(Your points: |你的积分：)110\b/);
      const once = await player.say("/system 签到", (m) =>
        /Checked in!|签到成功|already checked in|已经签到/.test(m.text),
      );
      expect(once.text).toMatch(/already checked in|已经签到/);
      expect(held(player, "bread")).toBe(3);
    } finally {
      await quitAndWait(server, player, name).catch(() => undefined);
    }
  });
});
