import { createConnection, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import {
  connectFrames,
  type FrameChannel,
  type FrameServer,
  listenFrames,
  WebSocketFrameChannel,
} from "./frame-transport.js";

const servers: FrameServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** An echo server that remembers how each connection closed. */
const echoServer = async (maxFrameBytes?: number) => {
  const closed: (Error | undefined)[] = [];
  const server = await listenFrames(maxFrameBytes === undefined ? {} : { maxFrameBytes }, (channel) => {
    channel.onFrame((frame) => channel.send(frame));
    channel.onClose((error) => closed.push(error));
  });
  servers.push(server);
  return { server, closed };
};

const nextFrame = (channel: FrameChannel): Promise<Uint8Array> =>
  new Promise((resolve) => channel.onFrame(resolve));

const rawSocket = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = createConnection({ host: "127.0.0.1", port }, () => resolve(socket));
    socket.on("error", reject);
  });

const closedSocket = (socket: Socket): Promise<void> =>
  new Promise((resolve) => socket.on("close", () => resolve()));

describe("SocketFrameChannel over 127.0.0.1", () => {
  it("delivers whole frames, including empty and large ones", async () => {
    const { server } = await echoServer();
    const client = await connectFrames({ port: server.port });
    const received: number[] = [];
    client.onFrame((frame) => received.push(frame.length));
    for (const size of [0, 1, 65_536, 300_000]) client.send(new Uint8Array(size).fill(7));
    await expect.poll(() => received, { timeout: 10_000 }).toEqual([0, 1, 65_536, 300_000]);
    client.close();
  });

  it("reassembles frames split byte by byte", async () => {
    const { server } = await echoServer();
    const socket = await rawSocket(server.port);
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    const frame = Buffer.from([0, 0, 0, 3, 9, 8, 7]);
    for (const byte of frame) {
      socket.write(Buffer.from([byte]));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await expect.poll(() => Buffer.concat(chunks).length, { timeout: 10_000 }).toBe(7);
    expect([...Buffer.concat(chunks)]).toEqual([...frame]);
    socket.destroy();
  });

  it("closes a connection announcing a frame above the limit, and keeps serving others", async () => {
    const { server, closed } = await echoServer(1024);
    const hostile = await rawSocket(server.port);
    hostile.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 1, 2, 3]));
    await closedSocket(hostile);
    await expect.poll(() => closed.length).toBe(1);
    expect(closed[0]?.message).toMatch(/exceeds 1024/);

    const client = await connectFrames({ port: server.port, maxFrameBytes: 1024 });
    const echoed = nextFrame(client);
    client.send(Uint8Array.from([1, 2, 3]));
    expect([...(await echoed)]).toEqual([1, 2, 3]);
    expect(() => client.send(new Uint8Array(2048))).toThrow(RangeError);
    client.close();
  });

  it("a listener that throws closes that channel, not the process", async () => {
    const errors: (Error | undefined)[] = [];
    const server = await listenFrames({}, (channel) => {
      channel.onFrame(() => {
        throw new Error("handler bug");
      });
      channel.onClose((error) => errors.push(error));
    });
    servers.push(server);
    const client = await connectFrames({ port: server.port });
    const gone = new Promise<void>((resolve) => client.onClose(() => resolve()));
    client.send(Uint8Array.from([1]));
    await gone;
    expect(errors[0]?.message).toBe("handler bug");
  });
});

describe("WebSocketFrameChannel", () => {
  it("carries binary messages as frames and refuses text messages", async () => {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, maxPayload: 4096 });
    await new Promise((resolve) => wss.once("listening", resolve));
    const closed: (Error | undefined)[] = [];
    wss.on("connection", (socket) => {
      const channel = new WebSocketFrameChannel(socket, 4096);
      channel.onFrame((frame) => channel.send(frame));
      channel.onClose((error) => closed.push(error));
    });
    const address = wss.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    const socket = new WebSocket(`ws://127.0.0.1:${port}`);
    await new Promise((resolve) => socket.once("open", resolve));
    const client = new WebSocketFrameChannel(socket);
    const echoed = nextFrame(client);
    client.send(Uint8Array.from([4, 5, 6]));
    expect([...(await echoed)]).toEqual([4, 5, 6]);
    socket.send("not a frame");
    await expect.poll(() => closed.length, { timeout: 10_000 }).toBe(1);
    expect(closed[0]?.message).toMatch(/text WebSocket/);
    await new Promise((resolve) => wss.close(resolve));
  });
});
