import type { Telemetry } from "../../agent/telemetry/telemetry.js";
import type { SystemMetrics } from "../shared/telemetry/system-metrics.js";
import { SaveBatcher } from "./effects/save-batcher.js";
import type { RelayTraffic } from "./proxied-player.js";
import type { RconCommand } from "./rcon/rcon-command.js";
import { RconCommands } from "./rcon/rcon-commands.js";
import { RconError } from "./rcon/rcon-error.js";

/** Commands whose name is a label value as it is; any other counts as `other` (bounded labels). */
const KNOWN_COMMANDS = new Set([
  "give",
  "save-all",
  "list",
  "data",
  "scoreboard",
  "clear",
  "tellraw",
  "experience",
  "effect",
  "teleport",
  "tp",
]);

/** Counts every frame the gateway relays, its bytes, and whether the gateway decoded it, per direction. */
export const relayTraffic = (metrics: SystemMetrics | undefined): RelayTraffic | undefined => {
  if (metrics === undefined) return undefined;
  const directions = (counter: SystemMetrics["relayFrames"]) => ({
    toServer: counter.labels("to_server"),
    toClient: counter.labels("to_client"),
  });
  const frames = directions(metrics.relayFrames);
  const bytes = directions(metrics.relayBytes);
  const decoded = directions(metrics.decodedFrames);
  return {
    frame: (direction, size, wasDecoded) => {
      frames[direction].inc();
      bytes[direction].inc(size);
      if (wasDecoded) decoded[direction].inc();
    },
  };
};

/** The outcome label of an RCON command: `ok`, or the kind of RconError (`timeout`, `connection_lost`, …). */
const rconOutcome = (error: unknown): string => (error instanceof RconError ? error.kind : "error");

/**
 * RCON commands counted by command and outcome with their latency, each in an `rcon <command>` span when it runs
 * inside a traced request. Never the command's arguments (player names, items).
 */
export class ObservedRconCommands extends RconCommands {
  constructor(
    options: ConstructorParameters<typeof RconCommands>[0],
    private readonly observe: { readonly metrics: SystemMetrics | undefined; readonly telemetry: Telemetry },
  ) {
    super(options);
  }

  override run<R>(
    command: RconCommand<R>,
    options: { readonly timeoutMillis?: number; readonly signal?: AbortSignal } = {},
  ): Promise<R> {
    const name = KNOWN_COMMANDS.has(command.name) ? command.name : "other";
    const { metrics, telemetry } = this.observe;
    // a give's commands carry the signal of the tool call they serve: their spans hang under it
    return telemetry.span(
      `rcon ${name}`,
      { "assistant.rcon.command": name },
      options.signal,
      async (span) => {
        const started = process.hrtime.bigint();
        let outcome = "ok";
        try {
          return await super.run(command, options);
        } catch (error) {
          outcome = rconOutcome(error);
          span.fail(outcome);
          throw error;
        } finally {
          metrics?.rconCommands.inc({ command: name, outcome });
          metrics?.rconSeconds.observe({ command: name }, Number(process.hrtime.bigint() - started) / 1e9);
        }
      },
    );
  }
}

/** A save batcher whose waits (a delivery waiting for its save-all) are counted by outcome and timed. */
export class ObservedSaveBatcher extends SaveBatcher {
  constructor(
    options: ConstructorParameters<typeof SaveBatcher>[0],
    private readonly metrics: SystemMetrics | undefined,
  ) {
    super(options);
  }

  override async afterEffect(login: number): Promise<void> {
    const metrics = this.metrics;
    if (metrics === undefined) return super.afterEffect(login);
    const started = process.hrtime.bigint();
    try {
      await super.afterEffect(login);
      metrics.saveWaits.inc({ outcome: "saved" });
    } catch (error) {
      metrics.saveWaits.inc({ outcome: rconOutcome(error) === "error" ? "failed" : rconOutcome(error) });
      throw error;
    } finally {
      metrics.saveWaitSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    }
  }
}
