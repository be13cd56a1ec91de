import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "./codec.js";
import { Identifier } from "./identifier.js";
import { Registry } from "./registry.js";
import {
  BOOL,
  ByteReader,
  ByteWriter,
  decodeFromBytes,
  encodeToBytes,
  F64,
  idTable,
  JSON_VALUE,
  STRING,
  StreamCodec,
  StreamDecodeError,
  UUID,
  VARINT,
} from "./stream-codec.js";

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

describe("ByteWriter / ByteReader", () => {
  it("grows past its initial capacity", () => {
    const writer = new ByteWriter(16);
    for (let index = 0; index < 1000; index++) writer.writeVarInt(index * 1000);
    const reader = new ByteReader(writer.toBytes());
    for (let index = 0; index < 1000; index++) expect(reader.readVarInt()).toBe(index * 1000);
    reader.expectEnd();
  });

  it("round-trips varints over the whole unsigned 32-bit range", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff_ffff }), (value) => {
        expect(decodeFromBytes(VARINT, encodeToBytes(VARINT, value))).toEqual({ success: true, value });
      }),
    );
  });

  it("refuses varints that are too long or too large", () => {
    expect(decodeFromBytes(VARINT, bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x01)).success).toBe(false);
    expect(decodeFromBytes(VARINT, bytes(0xff, 0xff, 0xff, 0xff, 0x7f)).success).toBe(false);
    expect(() => new ByteWriter().writeVarInt(-1)).toThrow(RangeError);
  });

  it("refuses a string whose declared length exceeds the limit before reading it", () => {
    const huge = new ByteWriter().writeVarInt(0xffff_ffff).toBytes();
    const result = decodeFromBytes(STRING(1024), huge);
    expect(result).toEqual({ success: false, error: expect.stringContaining("exceeds 1024") });
  });

  it("refuses truncated input and trailing bytes", () => {
    const encoded = encodeToBytes(STRING(100), "héllo");
    expect(decodeFromBytes(STRING(100), encoded.subarray(0, encoded.length - 1)).success).toBe(false);
    expect(decodeFromBytes(STRING(100), Uint8Array.from([...encoded, 0])).success).toBe(false);
  });

  it("writer refuses strings the reader would refuse", () => {
    expect(() => encodeToBytes(STRING(3), "abcd")).toThrow(RangeError);
  });
});

describe("StreamCodec combinators", () => {
  const Point = StreamCodec.struct({
    name: STRING(64),
    x: F64,
    tags: STRING(8).list(4),
    on: BOOL.optional(),
  });

  it("round-trips structs, lists and optionals", () => {
    fc.assert(
      fc.property(
        fc.record({
          name: fc.string({ maxLength: 16 }),
          x: fc.double({ noNaN: true }),
          tags: fc.array(fc.string({ maxLength: 2 }), { maxLength: 4 }),
          on: fc.option(fc.boolean(), { nil: undefined }),
        }),
        (value) => {
          const decoded = decodeFromBytes(Point, encodeToBytes(Point, value));
          expect(decoded).toEqual({ success: true, value });
        },
      ),
    );
  });

  it("refuses lists larger than their maximum or than the input", () => {
    const list = VARINT.list(10);
    expect(decodeFromBytes(list, bytes(11, ...new Array(11).fill(0))).success).toBe(false);
    expect(decodeFromBytes(VARINT.list(1_000_000), bytes(0xff, 0xff, 0x3f)).success).toBe(false);
  });

  it("encodes enums by ordinal and refuses unknown ordinals", () => {
    const Color = StreamCodec.ordinal(["RED", "GREEN"] as const);
    expect(encodeToBytes(Color, "GREEN")).toEqual(bytes(1));
    expect(decodeFromBytes(Color, bytes(2))).toEqual({ success: false, error: "unknown ordinal 2" });
  });

  it("refuses invalid booleans and keeps UUIDs lowercase", () => {
    expect(decodeFromBytes(BOOL, bytes(2)).success).toBe(false);
    const id = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9";
    expect(encodeToBytes(UUID, id)).toHaveLength(16);
    expect(decodeFromBytes(UUID, encodeToBytes(UUID, id))).toEqual({ success: true, value: id });
  });

  it("guards recursive codecs against hostile nesting", () => {
    type Tree = { readonly children: readonly Tree[] };
    const Tree: StreamCodec<Tree> = StreamCodec.struct({
      children: StreamCodec.lazy(() => Tree).list(2),
    });
    const hostile = bytes(...new Array(10_000).fill(1), 0);
    const result = decodeFromBytes(Tree, hostile);
    expect(result).toEqual({ success: false, error: expect.stringContaining("nesting") });
  });

  it("validates JSON through a Codec and refuses deep JSON", () => {
    const Input = StreamCodec.json(codec(z.object({ count: z.number().int() })), 256);
    expect(decodeFromBytes(Input, encodeToBytes(Input, { count: 3 }))).toEqual({
      success: true,
      value: { count: 3 },
    });
    const wrong = encodeToBytes(STRING(256), JSON.stringify({ count: "x" }));
    expect(decodeFromBytes(Input, wrong).success).toBe(false);
    const garbage = encodeToBytes(STRING(256), "{not json");
    expect(decodeFromBytes(Input, garbage).success).toBe(false);
    const deep = encodeToBytes(STRING(10_000), "[".repeat(5000) + "]".repeat(5000));
    expect(decodeFromBytes(JSON_VALUE(10_000), deep)).toEqual({
      success: false,
      error: expect.stringContaining("nested"),
    });
  });
});

describe("StreamCodec.dispatch", () => {
  type Shape = { kind: string; size: number };
  const registry = new Registry<StreamCodec<Shape>>("shape");
  const sized = (kind: string): StreamCodec<Shape> =>
    VARINT.map(
      (size) => ({ kind, size }),
      (shape) => shape.size,
    );
  registry.register(Identifier.parse("test:square"), sized("test:square"));
  registry.register(Identifier.parse("test:circle"), sized("test:circle"));
  registry.freeze();
  const Shapes = StreamCodec.dispatch(registry, (shape) => Identifier.parse(shape.kind));

  it("writes the numeric id then the entry's own codec", () => {
    const encoded = encodeToBytes(Shapes, { kind: "test:square", size: 5 });
    expect(encoded).toEqual(bytes(registry.numericId("test:square")!, 5));
    expect(decodeFromBytes(Shapes, encoded)).toEqual({
      success: true,
      value: { kind: "test:square", size: 5 },
    });
  });

  it("refuses unknown numeric ids while decoding", () => {
    const result = decodeFromBytes(Shapes, bytes(7, 5));
    expect(result).toEqual({ success: false, error: "unknown shape id 7" });
  });

  it("maps ids through a peer's table", () => {
    const peer = ["test:circle", "test:triangle", "test:square"];
    const Remote = StreamCodec.dispatch(registry, (shape) => Identifier.parse(shape.kind), peer);
    expect(encodeToBytes(Remote, { kind: "test:square", size: 1 })).toEqual(bytes(2, 1));
    expect(decodeFromBytes(Remote, bytes(1, 1)).success).toBe(false);
    expect(idTable(registry)).toEqual(["test:circle", "test:square"]);
  });

  it("never throws anything but a value on random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (input) => {
        const result = decodeFromBytes(Shapes, input);
        expect(typeof result.success).toBe("boolean");
      }),
    );
  });

  it("StreamDecodeError is the only decode error", () => {
    expect(() => Shapes.decode(new ByteReader(bytes()))).toThrow(StreamDecodeError);
  });
});
