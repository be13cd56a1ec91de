/**
 * Rewards through the gateway's RCON, against the same give in the embedded host. A plain flying-squid 1.21.4
 * world with the RCON STAND-IN of the test support (a real RCON server answering with the game's own texts; its
 * `save-all` writes the online players' data files, as vanilla's writes player data) and one mineflayer bot in it.
 * 1. Rewards per second with save batching: SYSTEM_BENCH_REWARDS (300) rewards of one bread, 50 waiting at a time
 *    (50 players' rewards), each done only after a save that began after it, with `saveIntervalSeconds` 1 and 5.
 * 2. Give round trip: SYSTEM_BENCH_GIVES (100) gives of one bread, one at a time, from the call to DONE: through
 *    RCON (room check by `data get`, `give`, `save-all` at once) and in the embedded host (flying-squid's
 *    inventory changed in place, the player file written and fsynced); p50/p99 and the ratios RCON/embedded.
 * Run: `npm run bench -- gateway-rcon` (also with `-- gateway`). Prints figures only.
 */
import { SquidHostPlayer } from "../src/host/flying-squid/host-player.js";
import { gatewayRconOver } from "../src/host/gateway/effects/gateway-rcon.js";
import { RconClient, RconCommands } from "../src/host/gateway/rcon/index.js";
import { silentLogger } from "../src/util/logger.js";
import { startRconStandIn } from "../test/support/rcon-stand-in.js";
import { joinBot, startPlainBackend, tempFolder } from "../test/system/gateway-support.js";

const REWARDS = Number(process.env.SYSTEM_BENCH_REWARDS ?? 300);
const GIVES = Number(process.env.SYSTEM_BENCH_GIVES ?? 100);
const WAITING = 50;
const PASSWORD = "bench";

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (value: number): string => `${value.toFixed(2)} ms`;

const worldFolder = tempFolder("bench-gateway-rcon-");
const backend = await startPlainBackend({ worldFolder });
const standIn = await startRconStandIn({ server: backend.server, password: PASSWORD, worldFolder });
const bot = await joinBot(backend.port, "Bencher");
const squid = backend.server.players.find((player) => player.username === "Bencher");
if (squid === undefined) throw new Error("the bot is not in the world");
const client = new RconClient({
  host: "127.0.0.1",
  port: standIn.port,
  password: PASSWORD,
  logger: silentLogger,
});
const commands = new RconCommands({ client, language: standIn.language, logger: silentLogger });
const target = { name: "Bencher", liveInventory: () => undefined };
const bread = [{ item: "minecraft:bread", count: 1 }];
const clearBread = async (): Promise<void> => {
  await client.command("clear Bencher minecraft:bread");
};

for (const seconds of [1, 5]) {
  await clearBread();
  const rcon = gatewayRconOver({
    commands,
    version: "1.21.4",
    saveIntervalSeconds: seconds,
    logger: silentLogger,
  });
  const savesBefore = standIn.saves();
  const started = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < REWARDS) {
      next++;
      const outcome = await rcon.effects.give(target, bread);
      if (!outcome.given) throw new Error(`refused: ${outcome.refusal}`);
    }
  };
  await Promise.all(Array.from({ length: WAITING }, worker));
  const elapsed = (performance.now() - started) / 1000;
  console.log(
    `rewards/s, saveIntervalSeconds ${seconds}: ${(REWARDS / elapsed).toFixed(1)} (${REWARDS} rewards, ${WAITING} waiting at a time, ${standIn.saves() - savesBefore} saves, ${elapsed.toFixed(1)} s)`,
  );
  await rcon.close();
}

await clearBread();
const rcon = gatewayRconOver({ commands, version: "1.21.4", saveIntervalSeconds: 0, logger: silentLogger });
const viaRcon: number[] = [];
for (let index = 0; index < GIVES; index++) {
  const started = performance.now();
  const outcome = await rcon.effects.give(target, bread);
  viaRcon.push(performance.now() - started);
  if (!outcome.given) throw new Error(`refused: ${outcome.refusal}`);
}
await rcon.close();
await clearBread();
const embedded = new SquidHostPlayer(backend.server, squid, "en_us", worldFolder, false);
const inHost: number[] = [];
for (let index = 0; index < GIVES; index++) {
  const started = performance.now();
  const outcome = await embedded.giveItems(bread);
  inHost.push(performance.now() - started);
  if (!outcome.given) throw new Error(`refused: ${outcome.refusal}`);
}
const [rconP50, rconP99, hostP50, hostP99] = [
  percentile(viaRcon, 50),
  percentile(viaRcon, 99),
  percentile(inHost, 50),
  percentile(inHost, 99),
];
console.log(
  `give round trip through RCON (room check, give, save-all): p50 ${ms(rconP50)}, p99 ${ms(rconP99)}`,
);
console.log(
  `give round trip in the embedded host (give, player file fsynced): p50 ${ms(hostP50)}, p99 ${ms(hostP99)}`,
);
console.log(
  `ratio RCON/embedded: p50 ${(rconP50 / hostP50).toFixed(2)}×, p99 ${(rconP99 / hostP99).toFixed(2)}× (${GIVES} gives each)`,
);

bot.quit();
await client.close();
await standIn.close();
await backend.close();
process.exit(0);
