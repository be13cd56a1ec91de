import type { Codec, Json } from "./codec.js";
import type { Identifier } from "./identifier.js";
import type { Registry } from "./registry.js";
import { invalid, type Validation, valid } from "./validation.js";

/** The one error a StreamCodec throws on bad bytes; callers turn it into INPUT_INVALID, never a crash. */
export class StreamDecodeError extends Error {
  override readonly name = "StreamDecodeError";
}

const MAX_VARINT = 0xffff_ffff;
const MAX_DEPTH = 32;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A growable output buffer (doubling), so encoders never need to know sizes in advance. */
export class ByteWriter {
  #buffer: Buffer;
  #length = 0;

  constructor(initialCapacity = 64) {
    this.#buffer = Buffer.allocUnsafe(Math.max(16, initialCapacity));
  }

  #reserve(count: number): void {
    if (this.#length + count <= this.#buffer.length) return;
    let capacity = this.#buffer.length * 2;
    while (capacity < this.#length + count) capacity *= 2;
    const next = Buffer.allocUnsafe(capacity);
    this.#buffer.copy(next, 0, 0, this.#length);
    this.#buffer = next;
  }

  writeByte(value: number): this {
    this.#reserve(1);
    this.#buffer[this.#length++] = value & 0xff;
    return this;
  }

  /** Unsigned LEB128, 0..2^32-1 (1–5 bytes). */
  writeVarInt(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > MAX_VARINT)
      throw new RangeError(`varint out of range: ${value}`);
    let rest = value;
    while (rest >= 0x80) {
      this.writeByte((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    return this.writeByte(rest);
  }

  writeBytes(bytes: Uint8Array): this {
    this.#reserve(bytes.length);
    this.#buffer.set(bytes, this.#length);
    this.#length += bytes.length;
    return this;
  }

  /** UTF-8 with a varint byte length; refuses to write more than `maxBytes` (the reader would refuse it). */
  writeString(value: string, maxBytes: number): this {
    const bytes = Buffer.from(value, "utf8");
    if (bytes.length > maxBytes) throw new RangeError(`string of ${bytes.length} bytes exceeds ${maxBytes}`);
    return this.writeVarInt(bytes.length).writeBytes(bytes);
  }

  /** A copy of what was written. */
  toBytes(): Uint8Array {
    return new Uint8Array(this.#buffer.subarray(0, this.#length));
  }
}

/** A bounds-checked reader over untrusted bytes: every length is checked before anything is allocated. */
export class ByteReader {
  readonly #bytes: Buffer;
  #offset = 0;
  #depth = 0;

  constructor(bytes: Uint8Array) {
    this.#bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.#bytes.length - this.#offset;
  }

  #need(count: number): void {
    if (count > this.remaining)
      throw new StreamDecodeError(`truncated: need ${count} bytes, ${this.remaining} left`);
  }

  readByte(): number {
    this.#need(1);
    return this.#bytes[this.#offset++]!;
  }

  readVarInt(): number {
    let value = 0;
    let scale = 1;
    for (let index = 0; index < 5; index++) {
      const byte = this.readByte();
      value += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) {
        if (value > MAX_VARINT) throw new StreamDecodeError("varint too large");
        return value;
      }
      scale *= 0x80;
    }
    throw new StreamDecodeError("varint too long");
  }

  readBytes(count: number): Uint8Array {
    this.#need(count);
    const slice = new Uint8Array(this.#bytes.subarray(this.#offset, this.#offset + count));
    this.#offset += count;
    return slice;
  }

  readString(maxBytes: number): string {
    const length = this.readVarInt();
    if (length > maxBytes) throw new StreamDecodeError(`string of ${length} bytes exceeds ${maxBytes}`);
    this.#need(length);
    const text = this.#bytes.toString("utf8", this.#offset, this.#offset + length);
    this.#offset += length;
    return text;
  }

  /** Guards recursive codecs against stack exhaustion by hostile nesting. */
  nested<T>(read: () => T): T {
    if (this.#depth >= MAX_DEPTH) throw new StreamDecodeError(`nesting deeper than ${MAX_DEPTH}`);
    this.#depth++;
    try {
      return read();
    } finally {
      this.#depth--;
    }
  }

  expectEnd(): void {
    if (this.remaining !== 0) throw new StreamDecodeError(`${this.remaining} trailing bytes`);
  }
}

type Decoded<C> = C extends StreamCodec<infer T> ? T : never;

/** A binary wire codec (the StreamCodec of the seeds). `decode` throws only StreamDecodeError. */
export class StreamCodec<T> {
  // Method signatures (not function properties) keep StreamCodec<Sub> assignable to StreamCodec<Base>.
  readonly #impl: { encode(value: T, writer: ByteWriter): void; decode(reader: ByteReader): T };

  constructor(encode: (value: T, writer: ByteWriter) => void, decode: (reader: ByteReader) => T) {
    this.#impl = { encode, decode };
  }

  /** Writes a value; throws RangeError only for values no peer could decode (programmer error). */
  encode(value: T, writer: ByteWriter): void {
    this.#impl.encode(value, writer);
  }

  /** Reads a value; throws only StreamDecodeError. */
  decode(reader: ByteReader): T {
    return this.#impl.decode(reader);
  }

  static of<T>(
    encode: (value: T, writer: ByteWriter) => void,
    decode: (reader: ByteReader) => T,
  ): StreamCodec<T> {
    return new StreamCodec(encode, decode);
  }

  /** Converts after decoding; `to` may throw StreamDecodeError to reject a value. */
  map<U>(to: (value: T) => U, from: (value: U) => T): StreamCodec<U> {
    return new StreamCodec<U>(
      (value, writer) => this.encode(from(value), writer),
      (reader) => to(this.decode(reader)),
    );
  }

  /** A presence byte then the value. */
  optional(): StreamCodec<T | undefined> {
    return new StreamCodec<T | undefined>(
      (value, writer) => {
        writer.writeByte(value === undefined ? 0 : 1);
        if (value !== undefined) this.encode(value, writer);
      },
      (reader) => (BOOL.decode(reader) ? this.decode(reader) : undefined),
    );
  }

  /** A varint count then the elements; counts above `maxSize` or above the bytes left are refused before reading. */
  list(maxSize: number): StreamCodec<readonly T[]> {
    return new StreamCodec<readonly T[]>(
      (values, writer) => {
        if (values.length > maxSize) throw new RangeError(`list of ${values.length} exceeds ${maxSize}`);
        writer.writeVarInt(values.length);
        for (const value of values) this.encode(value, writer);
      },
      (reader) => {
        const count = reader.readVarInt();
        if (count > maxSize) throw new StreamDecodeError(`list of ${count} exceeds ${maxSize}`);
        if (count > reader.remaining) throw new StreamDecodeError(`list of ${count} longer than the input`);
        const values: T[] = [];
        for (let index = 0; index < count; index++) values.push(this.decode(reader));
        return values;
      },
    );
  }

  /** Fields written in declaration order. */
  static struct<S extends Record<string, StreamCodec<unknown>>>(
    fields: S,
  ): StreamCodec<{ [K in keyof S]: Decoded<S[K]> }> {
    const entries = Object.entries(fields) as [keyof S & string, StreamCodec<unknown>][];
    type Value = { [K in keyof S]: Decoded<S[K]> };
    return new StreamCodec<Value>(
      (value, writer) => {
        for (const [key, field] of entries) field.encode(value[key], writer);
      },
      (reader) => {
        const value: Record<string, unknown> = {};
        for (const [key, field] of entries) value[key] = field.decode(reader);
        return value as Value;
      },
    );
  }

  /** One of a fixed list by ordinal; the order is wire format, so only ever append. */
  static ordinal<T>(values: readonly T[]): StreamCodec<T> {
    return new StreamCodec<T>(
      (value, writer) => {
        const index = values.indexOf(value);
        if (index < 0) throw new RangeError(`not an enum value: ${String(value)}`);
        writer.writeVarInt(index);
      },
      (reader) => {
        const index = reader.readVarInt();
        const value = values[index];
        if (value === undefined) throw new StreamDecodeError(`unknown ordinal ${index}`);
        return value;
      },
    );
  }

  /** For recursive codecs: the target is read when first used, with the reader's nesting guard. */
  static lazy<T>(target: () => StreamCodec<T>): StreamCodec<T> {
    return new StreamCodec<T>(
      (value, writer) => target().encode(value, writer),
      (reader) => reader.nested(() => target().decode(reader)),
    );
  }

  /** JSON-like data through a Codec (a bounded JSON string), e.g. AgentResult.CODEC or a module's input codec. */
  static json<T>(codec: Codec<T>, maxBytes: number): StreamCodec<T> {
    return JSON_VALUE(maxBytes).map(
      (parsed) => {
        let decoded: Validation<T>;
        try {
          decoded = codec.decode(parsed);
        } catch {
          throw new StreamDecodeError("invalid JSON data");
        }
        if (!decoded.success) throw new StreamDecodeError(decoded.error);
        return decoded.value;
      },
      (value) => codec.encode(value),
    );
  }

  /**
   * Dispatch by the numeric id of a frozen registry of codecs; `table` (index = numeric id) is the peer's id table
   * from the handshake, or the registry's own. Unknown ids are refused while decoding.
   */
  static dispatch<T>(
    registry: Registry<StreamCodec<T>>,
    typeOf: (value: T) => Identifier,
    table: readonly string[] = idTable(registry),
  ): StreamCodec<T> {
    const byId = new Map(table.map((id, index) => [id, index]));
    return new StreamCodec<T>(
      (value, writer) => {
        const id = typeOf(value).toString();
        const numeric = byId.get(id);
        const codec = registry.get(id);
        if (numeric === undefined || codec === undefined)
          throw new RangeError(`type ${id} is not in the ${registry.name} table`);
        writer.writeVarInt(numeric);
        codec.encode(value, writer);
      },
      (reader) => {
        const numeric = reader.readVarInt();
        const id = table[numeric];
        const codec = id === undefined ? undefined : registry.get(id);
        if (codec === undefined) throw new StreamDecodeError(`unknown ${registry.name} id ${numeric}`);
        return codec.decode(reader);
      },
    );
  }
}

/** The ids of a frozen registry in numeric-id order: what a handshake sends so the peer can map ids. */
export const idTable = (registry: Registry<unknown>): string[] =>
  registry
    .ids()
    .map((id) => id.toString())
    .sort((left, right) => (registry.numericId(left) ?? 0) - (registry.numericId(right) ?? 0));

export const VARINT: StreamCodec<number> = StreamCodec.of(
  (value, writer) => writer.writeVarInt(value),
  (reader) => reader.readVarInt(),
);

export const BOOL: StreamCodec<boolean> = StreamCodec.of(
  (value, writer) => writer.writeByte(value ? 1 : 0),
  (reader) => {
    const byte = reader.readByte();
    if (byte > 1) throw new StreamDecodeError(`not a boolean: ${byte}`);
    return byte === 1;
  },
);

/** A big-endian IEEE double. */
export const F64: StreamCodec<number> = StreamCodec.of(
  (value, writer) => {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value);
    writer.writeBytes(new Uint8Array(view.buffer));
  },
  (reader) => new DataView(reader.readBytes(8).buffer).getFloat64(0),
);

/** UTF-8 text of at most `maxBytes` bytes. */
export const STRING = (maxBytes: number): StreamCodec<string> =>
  StreamCodec.of(
    (value, writer) => writer.writeString(value, maxBytes),
    (reader) => reader.readString(maxBytes),
  );

/** A lowercase UUID string as 16 raw bytes. */
export const UUID: StreamCodec<string> = StreamCodec.of(
  (value, writer) => {
    if (!UUID_PATTERN.test(value)) throw new RangeError(`not a UUID: ${value}`);
    writer.writeBytes(Buffer.from(value.replaceAll("-", ""), "hex"));
  },
  (reader) => {
    const bytes = reader.readBytes(16);
    const hex = Buffer.from(bytes.buffer, bytes.byteOffset, 16).toString("hex");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  },
);

const MAX_JSON_DEPTH = 64;

const checkJsonDepth = (text: string): void => {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) throw new StreamDecodeError(`JSON nested deeper than ${MAX_JSON_DEPTH}`);
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
};

/** Any JSON value as a bounded JSON string (no schema), never nested deeper than validators can walk. */
export const JSON_VALUE = (maxBytes: number): StreamCodec<Json> =>
  STRING(maxBytes).map(
    (text) => {
      checkJsonDepth(text);
      try {
        return JSON.parse(text) as Json;
      } catch {
        throw new StreamDecodeError("malformed JSON");
      }
    },
    (value) => JSON.stringify(value),
  );

/** Encodes a value to bytes; throws (RangeError) only for values the codec itself could never decode. */
export const encodeToBytes = <T>(codec: StreamCodec<T>, value: T, initialCapacity?: number): Uint8Array => {
  const writer = new ByteWriter(initialCapacity);
  codec.encode(value, writer);
  return writer.toBytes();
};

/** Decodes all of `bytes` as one value; bad input is an error value (never a throw, never a crash). */
export const decodeFromBytes = <T>(codec: StreamCodec<T>, bytes: Uint8Array): Validation<T> => {
  try {
    const reader = new ByteReader(bytes);
    const value = codec.decode(reader);
    reader.expectEnd();
    return valid(value);
  } catch (error) {
    if (error instanceof StreamDecodeError) return invalid(error.message);
    throw error;
  }
};
