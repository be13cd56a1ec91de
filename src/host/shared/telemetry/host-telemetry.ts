import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NO_TELEMETRY, type Telemetry } from "../../../agent/telemetry/telemetry.js";
import type { AssistantServer } from "../../../assistant/assistant-server.js";
import type { Logger } from "../../../util/logger.js";
import { SystemMetrics } from "./system-metrics.js";
import { SystemTelemetry } from "./system-telemetry.js";
import { loadTelemetryConfig, type TelemetrySettings } from "./telemetry-config.js";
import { startTraceExport, traceEndpoint, traceProtocol } from "./trace-export.js";

/** System's version as spans name it. */
const VERSION = "0.1.0";

/** What a host opened for admins' monitoring: the telemetry requests record into, and `/metrics`. */
export interface HostTelemetry {
  /** Handed to the assistant; records nothing when metrics and traces are both off. */
  readonly telemetry: Telemetry;
  readonly metrics: SystemMetrics | undefined;
  readonly settings: TelemetrySettings;
  /** Where traces go (undefined: tracing off, no exporter exists). */
  readonly traceEndpoint: string | undefined;
  /** Answers `GET /metrics` (loopback, or the bearer token from elsewhere). */
  answer(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Flushes buffered spans and stops the exporter. */
  close(): Promise<void>;
}

/** Whether a peer address is this machine (127.0.0.0/8, ::1, or IPv4-mapped loopback). */
export const isLoopback = (address: string | undefined): boolean =>
  address !== undefined &&
  (address === "::1" || /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/u.test(address));

const sameToken = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Reads `telemetry.json` and the standard `OTEL_*` variables and opens what they turn on: the metrics registry
 * (on by default) and the trace exporter (off by default: none is created). A broken file stops the start.
 */
export const openTelemetry = async (options: {
  readonly dataDir: string;
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
}): Promise<HostTelemetry> => {
  const settings = await loadTelemetryConfig(options.dataDir, options.logger);
  const endpoint = traceEndpoint(settings.traces, options.environment);
  const { protocol, asked } = traceProtocol(options.environment);
  const metrics = settings.metrics.enabled ? new SystemMetrics() : undefined;
  const traces =
    endpoint === undefined
      ? undefined
      : await startTraceExport({
          endpoint,
          protocol,
          config: settings.traces,
          serviceName: options.environment.OTEL_SERVICE_NAME?.trim() || "system",
          version: VERSION,
        });
  if (traces !== undefined) {
    options.logger.info(`traces: exported to ${new URL(endpoint as string).host} (OTLP ${protocol})`);
    if (asked !== undefined && asked !== protocol)
      options.logger.warn(`traces: OTLP protocol "${asked}" is not spoken here; ${protocol} is used`);
  }
  const system =
    metrics === undefined && traces === undefined ? undefined : new SystemTelemetry(metrics, traces);
  const token = settings.bearerToken;
  return {
    telemetry: system ?? NO_TELEMETRY,
    metrics,
    settings,
    traceEndpoint: endpoint,
    answer: async (request, response) => {
      if (request.method !== "GET" && request.method !== "HEAD") {
        response.writeHead(405, { Allow: "GET" }).end();
        return;
      }
      if (metrics === undefined) {
        response.writeHead(404, { "Content-Type": "text/plain" }).end("metrics are off (telemetry.json)\n");
        return;
      }
      const authorization = request.headers.authorization ?? "";
      const bearer = /^Bearer\s+(\S+)$/iu.exec(authorization)?.[1];
      const allowed =
        isLoopback(request.socket.remoteAddress) ||
        (token !== undefined && bearer !== undefined && sameToken(bearer, token));
      if (!allowed) {
        response
          .writeHead(401, {
            "Content-Type": "text/plain",
            "WWW-Authenticate": 'Bearer realm="system metrics"',
          })
          .end("metrics: loopback only, or a bearer token (telemetry.json bearerTokenFile)\n");
        return;
      }
      const body = await metrics.exposition();
      response.writeHead(200, { "Content-Type": metrics.contentType, "Cache-Control": "no-store" }).end(body);
    },
    close: async () => {
      await system?.close();
    },
  };
};

/**
 * Adds the gauges read from a running assistant at scrape time: the executors' queues and running work, pending
 * and unconfirmed event tasks, damaged player files, and a network database's reachability and pool.
 */
export const watchAssistant = (metrics: SystemMetrics | undefined, assistant: AssistantServer): void => {
  if (metrics === undefined) return;
  const { tasks, journal, storage, damaged } = assistant.infrastructure;
  const pools = ["interactive", "event", "maintenance"] as const;
  metrics.gauge("system_executor_queue_depth", "Work waiting in each executor's queue.", ["executor"], () =>
    pools.map((name) => [{ executor: name }, tasks.pool(name).queued] as const),
  );
  metrics.gauge("system_executor_running", "Work running in each executor now.", ["executor"], () =>
    pools.map((name) => [{ executor: name }, tasks.pool(name).running] as const),
  );
  metrics.gauge(
    "system_journal_pending_events",
    "Durable event tasks not finished yet (queued, running, waiting for their player).",
    [],
    () => journal.unfinishedEvents().length,
  );
  metrics.gauge(
    "system_unconfirmed_deliveries",
    "Event tasks whose effect's fate is unknown, held for an admin (/system deliveries).",
    [],
    () => journal.unconfirmedEvents().length,
  );
  metrics.gauge(
    "system_player_files_damaged",
    "Players whose file was found damaged and kept aside, until an admin restores it.",
    [],
    () => damaged.list().length,
  );
  damaged.listen(() => metrics.playerFileErrors.inc({ kind: "damaged" }));
  const database = storage.database;
  if (database === undefined) return;
  const pool = database.pool;
  pool.on("error", () => metrics.databaseErrors.inc({ kind: "connection_lost" }));
  metrics.gauge(
    "system_database_pool_connections",
    "Connections of the PostgreSQL pool: total, idle, and clients waiting for one.",
    ["state"],
    () => [
      [{ state: "total" }, pool.totalCount],
      [{ state: "idle" }, pool.idleCount],
      [{ state: "waiting" }, pool.waitingCount],
    ],
  );
  metrics.gauge(
    "system_database_up",
    "1 when the network's PostgreSQL answered SELECT 1 at this scrape.",
    [],
    () =>
      Promise.race([
        pool.query("SELECT 1").then(
          () => 1,
          () => {
            metrics.databaseErrors.inc({ kind: "unreachable" });
            return 0;
          },
        ),
        new Promise<number>((resolve) => setTimeout(() => resolve(0), 2_000).unref()),
      ]),
  );
};

/** `--metrics-port N`: `/metrics` alone on its own port (a server without the panel). */
export const listenMetrics = async (options: {
  readonly telemetry: HostTelemetry;
  readonly port: number;
  readonly logger: Logger;
}): Promise<{ readonly url: string; close(): Promise<void> }> => {
  const host = options.telemetry.settings.metrics.host;
  const server: Server = createServer((request, response) => {
    if (new URL(request.url ?? "/", "http://metrics").pathname !== "/metrics") {
      response.writeHead(404).end();
      return;
    }
    options.telemetry.answer(request, response).catch((error: unknown) => {
      options.logger.error("metrics scrape failed", error);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}/metrics`;
  options.logger.info(`metrics on ${url}`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
