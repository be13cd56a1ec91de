import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

/** One span as an OTLP/HTTP JSON export carries it, with its attributes read into plain values. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** The resource's attributes (`service.name`). */
  readonly resource: Readonly<Record<string, string | number | boolean>>;
  readonly status: number;
}

interface AnyValue {
  readonly stringValue?: string;
  readonly intValue?: string | number;
  readonly doubleValue?: number;
  readonly boolValue?: boolean;
}

interface KeyValue {
  readonly key: string;
  readonly value: AnyValue;
}

/** The key each span of an OTLP/HTTP JSON export has once (`"parentSpanId"` does not contain it). */
const SPAN_KEY = Buffer.from('"spanId":"');

const plainValue = (value: AnyValue): string | number | boolean =>
  value.stringValue ??
  (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue ?? ""));

const attributesOf = (list: readonly KeyValue[] | undefined): Record<string, string | number | boolean> =>
  Object.fromEntries((list ?? []).map((entry) => [entry.key, plainValue(entry.value)]));

/**
 * A collector's OTLP/HTTP traces endpoint on 127.0.0.1 (`POST /v1/traces`, JSON, optionally gzipped), as the
 * OpenTelemetry exporter talks to a real collector: it keeps every span it receives.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** How many export requests arrived. */
  exports = 0;
  /** How many spans arrived (kept in `spans`, or only counted). */
  received = 0;

  private constructor(
    private readonly server: Server,
    private readonly keep: boolean,
  ) {}

  /**
   * `keep: false` (benches) only counts the spans of each export, by their `"spanId"` keys, as a collector on
   * another machine would take the parsing away from the process that runs the players.
   */
  static async start(options: { readonly keep?: boolean } = {}): Promise<OtlpReceiver> {
    const server = createServer();
    const receiver = new OtlpReceiver(server, options.keep ?? true);
    server.on("request", (request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        if (request.method !== "POST" || request.url !== "/v1/traces") {
          response.writeHead(404).end();
          return;
        }
        let body = Buffer.concat(chunks);
        if (request.headers["content-encoding"] === "gzip") body = gunzipSync(body);
        if (!receiver.keep) {
          receiver.exports++;
          for (let at = body.indexOf(SPAN_KEY); at >= 0; at = body.indexOf(SPAN_KEY, at + SPAN_KEY.length))
            receiver.received++;
          response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
          return;
        }
        try {
          receiver.#accept(JSON.parse(body.toString("utf8")));
          response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
        } catch {
          response.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return receiver;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  #accept(message: {
    resourceSpans?: {
      resource?: { attributes?: KeyValue[] };
      scopeSpans?: {
        spans?: {
          traceId: string;
          spanId: string;
          parentSpanId?: string;
          name: string;
          attributes?: KeyValue[];
          status?: { code?: number };
        }[];
      }[];
    }[];
  }): void {
    this.exports++;
    for (const resourceSpans of message.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? [])
        for (const span of scope.spans ?? []) {
          this.received++;
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId:
              span.parentSpanId === undefined || span.parentSpanId === "" ? undefined : span.parentSpanId,
            name: span.name,
            attributes: attributesOf(span.attributes),
            resource,
            status: span.status?.code ?? 0,
          });
        }
    }
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
