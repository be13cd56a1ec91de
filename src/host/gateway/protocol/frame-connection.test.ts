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
