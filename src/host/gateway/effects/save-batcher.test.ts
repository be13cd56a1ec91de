import { afterEach, describe, expect, it } from "vitest";
import { type RconServer, startRconServer } from "../../../../test/support/rcon-server.js";
import { MemoryLogger } from "../../../util/logger.js";
import { RconClient } from "../rcon/rcon-client.js";
import { RconCommands } from "../rcon/rcon-commands.js";
import { loadReplyLanguage } from "../rcon/reply-language.js";
import { saveAllCommand } from "../rcon/server-commands.js";
import { SaveBatcher } from "./save-batcher.js";

const PASSWORD = "batch";
const SAVED = "Saving the game (this may take a moment!)Saved the game";
const FAILED =
  "Saving the game (this may take a moment!)Unable to save the game (is there enough disk space?)";

/**
 * A scripted RCON server (the real protocol) that answers `save-all` as vanilla does, optionally holding a save
 * until the test releases it, failing one, or dropping the connection on `drop`.
 */
const scripted = async () => {
  const lines: string[] = [];
  let hold: Promise<void> | undefined;
  let release: () => void = () => {};
  let failNext = false;
  const server = await startRconServer({
    password: PASSWORD,
    handle: async (command, connection) => {
      lines.push(command);
      if (command === "drop") {
        connection.drop();
        return "";
      }
      if (command.startsWith("give")) return "Gave 1 [Bread] to Steve";
      if (command !== "save-all") return "Unknown or incomplete command, see below for error";
      await hold;
      if (failNext) {
        failNext = false;
        return FAILED;
      }
      return SAVED;
    },
  });
  return {
    server,
    lines,
    saves: () => lines.filter((line) => line === "save-all").length,
    holdSaves: () => {
      hold = new Promise((resolve) => {
        release = resolve;
      });
    },
    release: () => {
      hold = undefined;
      release();
    },
    failNextSave: () => {
      failNext = true;
    },
  };
};

const open = (server: RconServer, intervalMillis: number) => {
  const logger = new MemoryLogger();
  const client = new RconClient({ host: "127.0.0.1", port: server.port, password: PASSWORD, logger });
  const commands = new RconCommands({
    client,
    language: loadReplyLanguage("1.21.4", logger),
    logger,
    dialect: "plain",
  });
  const batcher = new SaveBatcher({
    target: { save: () => commands.run(saveAllCommand()), logins: () => commands.logins },
    intervalMillis,
    logger,
  });
  /** An effect: one command over the same connection, then the wait for its save. */
  const effect = async (): Promise<{ readonly saved: Promise<void> }> => {
    await client.command("give Steve minecraft:bread 1");
    const saved = batcher.afterEffect(commands.logins);
    saved.catch(() => {});
    return { saved };
  };
  return { client, commands, batcher, effect, logger };
};

describe("SaveBatcher", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of cleanup.splice(0)) await close();
  });

  it("resolves an effect only after a save that began after it, and one save covers a batch", async () => {
    const backend = await scripted();
    const { client, commands, batcher, effect } = open(backend.server, 0);
    cleanup.push(
      () => client.close(),
      () => backend.server.close(),
    );
    backend.holdSaves();
    const first = (await effect()).saved;
    await expect.poll(() => backend.saves()).toBe(1);
    // effects reported done while the first save runs (RCON runs one command at a time, so they ran before it on
    // another path, or their replies arrived as it began): that save cannot cover them
    const later = [1, 2, 3].map(() => batcher.afterEffect(commands.logins));
    let firstDone = false;
    void first.then(() => {
      firstDone = true;
    });
    backend.release();
    await first;
    expect(firstDone).toBe(true);
    await Promise.all(later);
    expect(backend.saves()).toBe(2);
    expect(batcher.saves).toBe(2);
    expect(backend.lines).toEqual(["give Steve minecraft:bread 1", "save-all", "save-all"]);
  });

  it("asks for no save while nothing waits", async () => {
    const backend = await scripted();
    const { client, effect } = open(backend.server, 0);
    cleanup.push(
      () => client.close(),
      () => backend.server.close(),
    );
    await (await effect()).saved;
    await client.command("give Steve minecraft:bread 1");
    await client.command("give Steve minecraft:bread 1");
    expect(backend.saves()).toBe(1);
  });

  it("fails the effects of a failed save: their fate is unknown", async () => {
    const backend = await scripted();
    const { client, effect, logger } = open(backend.server, 0);
    cleanup.push(
      () => client.close(),
      () => backend.server.close(),
    );
    backend.failNextSave();
    await expect((await effect()).saved).rejects.toThrow(/could not save/);
    expect(logger.has("may not be saved")).toBe(true);
    // the next effect gets a save of its own
    await (await effect()).saved;
    expect(backend.saves()).toBe(2);
  });

  it("fails an effect when the connection changed before the save (the backend may have restarted)", async () => {
    const backend = await scripted();
    const { client, commands, batcher } = open(backend.server, 0);
    cleanup.push(
      () => client.close(),
      () => backend.server.close(),
    );
    await client.command("give Steve minecraft:bread 1");
    const login = commands.logins;
    await client.command("drop").catch(() => {});
    const waiting = batcher.afterEffect(login);
    await expect(waiting).rejects.toThrow(/broke between the effect and the save/);
    expect(backend.saves()).toBe(1);
  });

  it("waits for the interval between saves, and flush saves at once on a clean stop", async () => {
    const backend = await scripted();
    const { client, batcher, effect } = open(backend.server, 3_600_000);
    cleanup.push(
      () => client.close(),
      () => backend.server.close(),
    );
    // the first save begins at once; the next may not begin within the hour
    await (await effect()).saved;
    const waiting = (await effect()).saved;
    expect(backend.saves()).toBe(1);
    await batcher.flush();
    await waiting;
    expect(backend.saves()).toBe(2);
  });

  it("rejects what still waits when closed, and anything after", async () => {
    const backend = await scripted();
    const { client, batcher, effect } = open(backend.server, 3_600_000);
    cleanup.push(
      () => client.close(),
      () => backend.server.close(),
    );
    await (await effect()).saved;
    const waiting = (await effect()).saved;
    batcher.close();
    await expect(waiting).rejects.toThrow(/stopped before the backend saved/);
    await expect(batcher.afterEffect(1)).rejects.toThrow(/stopping/);
  });
});
