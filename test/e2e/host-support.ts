import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mineflayer, { type Bot } from "mineflayer";

/** A temp folder for one test file's world and config. */
export const tempFolder = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMillis`. */
export const waitFor = async <T>(check: () => T | undefined, timeoutMillis = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMillis;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** Joins a 1.21.4 offline-mode bot and resolves once it has spawned. */
export const joinBot = (
  port: number,
  username: string,
  beforeSpawn: (bot: Bot) => void = () => {},
): Promise<Bot> => {
  const bot = mineflayer.createBot({
    host: "127.0.0.1",
    port,
    username,
    version: "1.21.4",
    auth: "offline",
    // the library's own plugin-channel types need no schema check per bot (a compile per connection)
    validateChannelProtocol: false,
  });
  beforeSpawn(bot);
  return new Promise((resolve, reject) => {
    bot.once("spawn", () => resolve(bot));
    bot.once("error", reject);
    bot.once("kicked", (reason) => reject(new Error(`kicked: ${JSON.stringify(reason)}`)));
  });
};
