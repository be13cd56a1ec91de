import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import nbt from "prismarine-nbt";
import { afterEach, describe, expect, it } from "vitest";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import { joinPlayer, type Player, roundTrip, tempFolder, waitFor } from "./system-support.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface Started {
  readonly child: ChildProcess;
  readonly port: number;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
}

/** `npm start` in `dataDir`, as a user runs it; resolves once it prints `listening on`. */
const npmStart = async (dataDir: string): Promise<Started> => {
  const child = spawn("npm", ["start", "--", "--port", "0", "--panel-port", "0", "--data-dir", dataDir], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    // its own process group: a failed test kills the server under npm too, not npm alone
    detached: true,
    env: { ...process.env, SYSTEM_MODEL_BASE_URL: "", SYSTEM_MODEL: "" },
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8");
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const port = await waitFor(() => /listening on 127\.0\.0\.1:(\d+)/.exec(output)?.[1], 60_000);
  return { child, port: Number(port), output: () => output, exited };
};

const count = (player: Player, name: string): number =>
  player.bot.inventory
    .items()
    .filter((item) => item.name === name)
    .reduce((sum, item) => sum + item.count, 0);

describe("a normal stop (SIGTERM) with players online", () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0))
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  });

  it("keeps what an online player received: saved, and the playerdata file is a valid, non-empty file", async () => {
    const dataDir = tempFolder("system-stop-");
    mkdirSync(join(dataDir, "config", "system"), { recursive: true });
    writeFileSync(
      join(dataDir, "config", "system", "server.json"),
      JSON.stringify({ generation: "superflat" }),
    );
    // the second check-in must really run to show the paid day survived the stop, not be replayed from the cache
    writeFileSync(
      join(dataDir, "config", "system", "system-agent.json"),
      JSON.stringify({ policies: {}, replayWindowSeconds: 0 }),
    );

    const first = await npmStart(dataDir);
    children.push(first.child);
    const steve = await joinPlayer(first.port, "Steve");
    const reply = await steve
      .say("/system checkin", (m) => /Checked in/.test(m.text))
      .catch((error: unknown) => {
        throw new Error(`${String(error)}\n${first.output()}`);
      });
    expect(reply.text).toContain("Bread × 3");
    await waitFor(() => (count(steve, "bread") === 3 ? true : undefined), 20_000);
    const uuid = offlineUuid("Steve");
    // a change System did not make (walking): only the save at stop keeps it, the give saved the old position
    const start = steve.bot.entity.position.clone();
    steve.bot.setControlState("forward", true);
    await waitFor(() => (steve.bot.entity.position.distanceTo(start) > 3 ? true : undefined), 20_000);
    steve.bot.setControlState("forward", false);
    // stopped, and the last position the bot sent is in: a round trip after it on the same connection
    await waitFor(() => {
      const { x, z } = steve.bot.entity.velocity;
      return Math.hypot(x, z) < 0.001 ? true : undefined;
    });
    await roundTrip(steve);
    const walked = steve.bot.entity.position.clone();
    // the player is still online when the stop begins
    first.child.kill("SIGTERM");
    expect(await first.exited, first.output()).toEqual({ code: 0, signal: null });
    steve.quit();

    const file = join(dataDir, "world", "playerdata", `${uuid}.dat`);
    expect((await stat(file)).size).toBeGreaterThan(0);
    const { parsed } = await nbt.parse(await readFile(file));
    const inventory = nbt.simplify(parsed) as {
      Inventory?: { id: string; Count?: number; count?: number }[];
    };
    const saved = (inventory.Inventory ?? [])
      .filter((stack) => stack.id === "minecraft:bread")
      .reduce((sum, stack) => sum + (stack.Count ?? stack.count ?? 0), 0);
    expect(saved).toBe(3);
    const pos = (nbt.simplify(parsed) as { Pos?: number[] }).Pos ?? [];
    expect(
      Math.hypot((pos[0] ?? 0) - walked.x, (pos[2] ?? 0) - walked.z),
      JSON.stringify({ pos, walked }),
    ).toBeLessThan(1.5);

    const second = await npmStart(dataDir);
    children.push(second.child);
    const back = await joinPlayer(second.port, "Steve");
    await waitFor(() => (count(back, "bread") === 3 ? true : undefined), 20_000);
    expect(count(back, "experience_bottle")).toBe(2);
    // the day was paid: checking in again says so and pays nothing
    const again = await back.say("/system checkin", (m) => /checked in/i.test(m.text));
    expect(again.text).toMatch(/already checked in today/);
    second.child.kill("SIGTERM");
    expect(await second.exited, second.output()).toEqual({ code: 0, signal: null });
    back.quit();
  }, 180_000);
});
