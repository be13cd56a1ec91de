import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { FrameConnection } from "./frame-connection.js";
import { varIntBuffer } from "./minecraft-protocol.js";
import { collect, socketPair } from "./socket-pair.test-support.js";

const open: FrameConnection[] = [];
const pair = async (): Promise<[FrameConnection, FrameConnection]> => {
  const [left, right] = await socketPair();
  const connections: [FrameConnection, FrameConnection] = [
    new FrameConnection(left),
    new FrameConnection(right),
  ];
  open.push(...connections);
  return connections;
};

afterEach(() => {
  for (const connection of open.splice(0)) connection.close();
});

describe("FrameConnection", () => {
  it("reads frames in order however TCP splits or joins them", async () => {
    const [reader, writer] = await pair();
    const frames = [Buffer.from([1, 2, 3]), randomBytes(70_000), Buffer.from([0x7f])];
    const read = collect<Buffer>((listener) => reader.on("frame", listener), frames.length);
    for (const frame of frames) writer.write(frame);
    expect(await read).toEqual(frames);
  });

  it("reads frames fed one byte at a time, and ends the leg at a length prefix the protocol cannot carry", async () => {
    const [reader, writer] = await pair();
    const frame = Buffer.from("one byte at a time", "utf8");
    const read = collect<Buffer>((listener) => reader.on("frame", listener), 1);
    for (const byte of Buffer.concat([varIntBuffer(frame.length), frame]))
      writer.socket.write(Buffer.from([byte]));
    expect(await read).toEqual([frame]);
    const closed = new Promise<void>((resolve) => reader.once("close", resolve));
    writer.socket.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x01]));
    await closed;
    expect(reader.closed).toBe(true);
  });

  it("switches compression exactly at the frame that announces it, even inside one TCP chunk", async () => {
    const [reader, writer] = await pair();
    const large = randomBytes(600);
    const read = collect<Buffer>((listener) => {
      let first = true;
      reader.on("frame", (frame) => {
        // the first frame announces compression: the reader decompresses from the next one on
        if (first) reader.enableCompression(256);
        first = false;
        listener(frame);
      });
    }, 3);
    writer.socket.cork();
    writer.write(Buffer.from([0x03, ...varIntBuffer(256)]));
    writer.enableCompression(256);
    writer.write(Buffer.from([0x05, 0x01]));
    writer.write(large);
    writer.socket.uncork();
    expect(await read).toEqual([Buffer.from([0x03, ...varIntBuffer(256)]), Buffer.from([0x05, 0x01]), large]);
  });

  it("encrypts and decrypts both ways with the shared secret", async () => {
    const [left, right] = await pair();
    const secret = randomBytes(16);
    left.enableEncryption(secret);
    right.enableEncryption(secret);
    const seen: Buffer[] = [];
    right.socket.prependListener("data", (chunk: Buffer) => seen.push(chunk));
    const frame = Buffer.from("a frame the network must not show", "utf8");
    const read = collect<Buffer>((listener) => right.on("frame", listener), 1);
    left.write(frame);
    expect(await read).toEqual([frame]);
    expect(Buffer.concat(seen).includes(frame)).toBe(false);
  });
});

describe("FrameConnection.forward", () => {
  it("passes a compressed frame on with its wire bytes to a leg compressed alike, and inflates it for reading", async () => {
    const [source, reader] = await pair();
    const [relay, sink] = await pair();
    for (const connection of [source, reader, relay, sink]) connection.enableCompression(256);
    // text compresses: the bytes on the wire differ from the frame, so equal bytes at the sink mean no recompression
    const large = Buffer.from("relayed ".repeat(200), "utf8");
    const wires: Buffer[] = [];
    reader.on("frame", (frame, wire) => {
      wires.push(wire.bytes);
      relay.forward(frame, wire);
    });
    const seen: Buffer[] = [];
    sink.socket.prependListener("data", (chunk: Buffer) => seen.push(chunk));
    const read = collect<Buffer>((listener) => sink.on("frame", listener), 2);
    source.write(Buffer.from([0x05, 0x01]));
    source.write(large);
    expect(await read).toEqual([Buffer.from([0x05, 0x01]), large]);
    expect(wires[1]?.length).toBeLessThan(large.length);
    expect(Buffer.concat(seen).includes(wires[1] as Buffer)).toBe(true);
  });

  it("writes the frame afresh to a leg that compresses differently", async () => {
    const [source, reader] = await pair();
    const [relay, sink] = await pair();
    const large = Buffer.from("relayed ".repeat(200), "utf8");
    reader.on("frame", (frame, wire) => relay.forward(frame, wire));
    for (const connection of [source, reader]) connection.enableCompression(256);
    const read = collect<Buffer>((listener) => sink.on("frame", listener), 1);
    source.write(large);
    expect(await read).toEqual([large]);
  });

  it("reports a compressed frame that does not inflate instead of dropping it", async () => {
    const [source, reader] = await pair();
    reader.enableCompression(256);
    const read = collect<{ bytes: Buffer }>((listener) => reader.on("undecodable", listener), 1);
    const broken = Buffer.from([...varIntBuffer(300), 0xde, 0xad, 0xbe, 0xef]);
    source.socket.write(Buffer.concat([varIntBuffer(broken.length), broken]));
    expect((await read)[0]?.bytes).toEqual(broken);
  });
});
