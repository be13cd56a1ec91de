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

/** One field of a protobuf message: its number and its value (a number for varints and fixed, bytes otherwise). */
interface ProtoField {
  readonly field: number;
  readonly value: number | Buffer;
}

/** The fields of one protobuf message, in order (the wire format OTLP/HTTP protobuf sends). */
const protoFields = (buffer: Buffer): ProtoField[] => {
  const fields: ProtoField[] = [];
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = buffer[at++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  };
  while (at < buffer.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) fields.push({ field, value: varint() });
    else if (wire === 1) {
      fields.push({ field, value: buffer.readDoubleLE(at) });
      at += 8;
    } else if (wire === 5) {
      fields.push({ field, value: buffer.readUInt32LE(at) });
      at += 4;
    } else if (wire === 2) {
      const length = varint();
      fields.push({ field, value: buffer.subarray(at, at + length) });
      at += length;
    } else throw new Error(`protobuf wire type ${wire} is not OTLP's`);
  }
  return fields;
};

const bytesOf = (fields: readonly ProtoField[], field: number): Buffer[] =>
  fields
    .filter((entry) => entry.field === field && Buffer.isBuffer(entry.value))
    .map((entry) => entry.value as Buffer);

/** An OTLP AnyValue (string 1, bool 2, int 3, double 4) as the JSON form writes it. */
const protoValue = (buffer: Buffer): AnyValue => {
  const [entry] = protoFields(buffer);
  if (entry === undefined) return {};
  if (entry.field === 1) return { stringValue: (entry.value as Buffer).toString("utf8") };
  if (entry.field === 2) return { boolValue: entry.value === 1 };
  if (entry.field === 3) return { intValue: entry.value as number };
  // a double arrives as fixed64: the reader read it as such
  if (entry.field === 4) return { doubleValue: entry.value as number };
  return {};
};

const protoAttributes = (buffers: readonly Buffer[]): KeyValue[] =>
  buffers.map((buffer) => {
    const fields = protoFields(buffer);
    return {
      key: (bytesOf(fields, 1)[0] ?? Buffer.alloc(0)).toString("utf8"),
      value: protoValue(bytesOf(fields, 2)[0] ?? Buffer.alloc(0)),
    };
  });

/**
 * An ExportTraceServiceRequest in protobuf as the JSON form carries it (ids in hex): resource_spans 1 → resource 1
 * (attributes 1), scope_spans 2 → spans 2 (trace_id 1, span_id 2, parent_span_id 4, name 5, attributes 9, status
 * 15 → code 3).
 */
const fromProtobuf = (body: Buffer): Parameters<OtlpReceiver["accept"]>[0] => ({
  resourceSpans: bytesOf(protoFields(body), 1).map((resourceSpans) => {
    const fields = protoFields(resourceSpans);
    const resource = bytesOf(fields, 1)[0];
    return {
      resource: {
        attributes: resource === undefined ? [] : protoAttributes(bytesOf(protoFields(resource), 1)),
      },
      scopeSpans: bytesOf(fields, 2).map((scope) => ({
        spans: bytesOf(protoFields(scope), 2).map((span) => {
          const own = protoFields(span);
          const status = bytesOf(own, 15)[0];
          const code =
            status === undefined ? undefined : protoFields(status).find((entry) => entry.field === 3);
          return {
            traceId: (bytesOf(own, 1)[0] ?? Buffer.alloc(0)).toString("hex"),
            spanId: (bytesOf(own, 2)[0] ?? Buffer.alloc(0)).toString("hex"),
            parentSpanId: (bytesOf(own, 4)[0] ?? Buffer.alloc(0)).toString("hex"),
            name: (bytesOf(own, 5)[0] ?? Buffer.alloc(0)).toString("utf8"),
            attributes: protoAttributes(bytesOf(own, 9)),
            status: { code: (code?.value as number | undefined) ?? 0 },
          };
        }),
      })),
    };
  }),
});

/** How many spans a protobuf export holds, without decoding them. */
const countProtobufSpans = (body: Buffer): number =>
  bytesOf(protoFields(body), 1).reduce(
    (sum, resourceSpans) =>
      sum +
      bytesOf(protoFields(resourceSpans), 2).reduce(
        (inner, scope) => inner + bytesOf(protoFields(scope), 2).length,
        0,
      ),
    0,
  );

/**
 * A collector's OTLP/HTTP traces endpoint on 127.0.0.1 (`POST /v1/traces`, protobuf or JSON, optionally gzipped), as the
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
        const protobuf = request.headers["content-type"] === "application/x-protobuf";
        // the answer in the request's own encoding: an empty ExportTraceServiceResponse
        const ok = (): void => {
          if (protobuf) response.writeHead(200, { "Content-Type": "application/x-protobuf" }).end();
          else response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
        };
        try {
          if (!receiver.keep) {
            receiver.exports++;
            if (protobuf) receiver.received += countProtobufSpans(body);
            else
              for (
                let at = body.indexOf(SPAN_KEY);
                at >= 0;
                at = body.indexOf(SPAN_KEY, at + SPAN_KEY.length)
              )
                receiver.received++;
          } else receiver.accept(protobuf ? fromProtobuf(body) : JSON.parse(body.toString("utf8")));
          ok();
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

  /** Keeps the spans of one export (the JSON form; a protobuf export is read into it first). */
  accept(message: {
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
