import { randomUUID } from "node:crypto";
import { createConnection, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { AgentResult } from "../src/agent/agent-result.js";
import { CardBuilder } from "../src/agent/card/card-builder.js";
import { type CardRef, newCardRef, nextVersion } from "../src/agent/card/card-ref.js";
import { CardRegistry } from "../src/agent/card/card-registry.js";
import { replaceCard, showCard } from "../src/agent/card/card-update.js";
import { MESSAGE_CARD } from "../src/agent/card/message-card.js";
import type { AgentRequest } from "../src/agent/request/agent-request.js";
import { CardActionRequest } from "../src/agent/request/card-action-request.js";
import { ChatRequest } from "../src/agent/request/chat-request.js";
import { ControlRequest } from "../src/agent/request/control-request.js";
import { PreferencesRequest } from "../src/agent/request/preferences-request.js";
import { SystemRequestTypes } from "../src/agent/request/system-request-types.js";
import type { AgentResponse } from "../src/agent/response/agent-response.js";
import { NoticeResponse } from "../src/agent/response/notice-response.js";
import { ProtocolClient, ProtocolRefusedError } from "../src/agent/response/protocol-client.js";
import { encodeHello } from "../src/agent/response/protocol-handshake.js";
import { acceptProtocol, type ProtocolSession } from "../src/agent/response/protocol-server.js";
import { PROTOCOL_VERSION } from "../src/agent/response/protocol-version.js";
import { ReplyResponse } from "../src/agent/response/reply-response.js";
import { StateResponse } from "../src/agent/response/state-response.js";
import { SystemResponseTypes } from "../src/agent/response/system-response-types.js";
import { literal, translatable } from "../src/agent/text.js";
import {
  connectFrames,
  type FrameServer,
  listenFrames,
  WebSocketFrameChannel,
} from "../src/util/frame-transport.js";
import { MemoryLogger } from "../src/util/logger.js";

/** A small protocol server: echoes chat as a card with a "next page" button; the button replaces the page. */
const startServer = async () => {
  const cards = new CardRegistry();
  cards.register(MESSAGE_CARD);
  cards.freeze();
  const requestTypes = SystemRequestTypes.builtin();
  const responseTypes = SystemResponseTypes.builtin();
  const logger = new MemoryLogger();
  const sent = new Map<string, CardRef>();
  const page = (text: string, next: number) =>
    CardBuilder.of("system.card.message", literal(text))
      .button("system.card.message", "example:page", String(next))
      .build();
  const handle = async (request: AgentRequest, session: ProtocolSession): Promise<void> => {
    if (request instanceof ChatRequest) {
      if (request.text === "boom") throw new Error("module bug");
      if (request.text === "huge") {
        // An answer over the wire limit cannot be sent; the request still gets an error reply.
        session.send(new ReplyResponse(request.requestId, AgentResult.success(literal("x".repeat(100_000)))));
        return;
      }
      if (request.text.startsWith("slow")) await new Promise((resolve) => setTimeout(resolve, 200));
      const ref = newCardRef();
      sent.set(ref.id, ref);
      session.send(
        new ReplyResponse(
          request.requestId,
          AgentResult.success(literal(`echo: ${request.text}`)),
          showCard(ref, page(request.text, 2)),
        ),
      );
    } else if (request instanceof CardActionRequest) {
      const current = sent.get(request.card.id);
      if (
        current === undefined ||
        current.version !== request.card.version ||
        request.action !== "example:page"
      ) {
        session.send(
          new ReplyResponse(
            request.requestId,
            AgentResult.error({ code: "STALE", key: "system.card.failure", args: [] }),
          ),
        );
        return;
      }
      const next = nextVersion(current);
      sent.set(next.id, next);
      session.send(
        new ReplyResponse(
          request.requestId,
          AgentResult.success(),
          replaceCard(next, page(`page ${request.args[0]}`, Number(request.args[0]) + 1)),
        ),
      );
    } else if (request === ControlRequest.STATE || request instanceof PreferencesRequest) {
      session.send(
        new StateResponse({
          protocolVersion: PROTOCOL_VERSION,
          commands: [{ literal: "help", usage: "/system help" }],
          completions: ["help"],
          preferences:
            request instanceof PreferencesRequest
              ? { history: request.history, external: request.external }
              : { history: true, external: false },
          registries: session.tables(),
        }),
      );
    }
  };
  const options = { requestTypes, responseTypes, cardTypes: cards, handle, logger };
  const tcp = await listenFrames({ maxFrameBytes: 65_536 }, (channel) => acceptProtocol(channel, options));
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, maxPayload: 65_536 });
  await new Promise((resolve) => wss.once("listening", resolve));
  wss.on("connection", (socket) => acceptProtocol(new WebSocketFrameChannel(socket, 65_536), options));
  const address = wss.address();
  const wsPort = typeof address === "object" && address !== null ? address.port : 0;
  return { tcp, wss, wsPort, logger };
};

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.tcp.close();
  await new Promise((resolve) => server.wss.close(resolve));
});

const connect = async (tcp: FrameServer, options: { protocolVersion?: number } = {}) =>
  ProtocolClient.connect(await connectFrames({ port: tcp.port }), {
    client: "test",
    timeoutMillis: 10_000,
    ...options,
  });

const rawSocket = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = createConnection({ host: "127.0.0.1", port }, () => resolve(socket));
    socket.on("error", reject);
  });

const frame = (bytes: Uint8Array): Buffer => {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(bytes.length);
  return Buffer.concat([header, bytes]);
};

describe("protocol over a real 127.0.0.1 socket", () => {
  it("answers a ChatRequest with a ReplyResponse tied to its request id, and a card button replaces the page", async () => {
    const client = await connect(server.tcp);
    expect(client.tables.requestTypes).toContain("system:chat");
    const requestId = randomUUID();
    const reply = await client.request(new ChatRequest(requestId, "查询物品 钻石"));
    expect(reply.requestId).toBe(requestId);
    expect(reply.result.message).toEqual(literal("echo: 查询物品 钻石"));
    const shown = client.cards.cards();
    expect(shown).toHaveLength(1);
    const card = shown[0]!;
    const button = card.view.buttons[0]!;

    const click = new CardActionRequest(
      randomUUID(),
      { id: card.id, version: card.version },
      button.action,
      button.args,
    );
    const replaced = await client.request(click);
    expect(replaced.requestId).toBe(click.requestId);
    expect(replaced.result.isSuccess()).toBe(true);
    expect(client.cards.get(card.id)).toMatchObject({ version: 1, view: { arguments: [literal("page 2")] } });

    // Clicking the old page again is refused by the server, and the client keeps the newer page.
    const stale = await client.request(
      new CardActionRequest(randomUUID(), { id: card.id, version: 0 }, button.action, button.args),
    );
    expect(stale.result.isFailure()).toBe(true);
    expect(client.cards.get(card.id)?.version).toBe(1);
    client.close();
  });

  it("matches replies to requests by id when they complete out of order", async () => {
    const client = await connect(server.tcp);
    const slow = new ChatRequest(randomUUID(), "slow one");
    const fast = new ChatRequest(randomUUID(), "fast one");
    const order: string[] = [];
    const replies = await Promise.all([
      client.request(slow).then((reply) => {
        order.push("slow");
        return reply;
      }),
      client.request(fast).then((reply) => {
        order.push("fast");
        return reply;
      }),
    ]);
    expect(order).toEqual(["fast", "slow"]);
    expect(replies.map((reply) => reply.requestId)).toEqual([slow.requestId, fast.requestId]);
    client.close();
  });

  it("sends controls and preferences and receives state with the synchronized id tables", async () => {
    const client = await connect(server.tcp);
    const states: AgentResponse[] = [];
    client.onResponse((response) => states.push(response));
    client.send(ControlRequest.STATE);
    client.send(new PreferencesRequest(false, true));
    await expect.poll(() => states.length, { timeout: 10_000 }).toBe(2);
    const [state, preferences] = states as StateResponse[];
    expect(state).toBeInstanceOf(StateResponse);
    expect(state?.registries).toEqual(client.tables);
    expect(state?.registries.cardTypes).toEqual(["system:message"]);
    expect(preferences?.preferences).toEqual({ history: false, external: true });
    client.close();
  });

  it("a handler that throws answers with an error result and the server keeps serving", async () => {
    const client = await connect(server.tcp);
    const failed = await client.request(new ChatRequest(randomUUID(), "boom"));
    expect(failed.result.failure?.code).toBe("MODULE_FAILED");
    expect((await client.request(new ChatRequest(randomUUID(), "still there"))).result.isSuccess()).toBe(
      true,
    );
    expect(server.logger.has("module bug")).toBe(true);
    const huge = await client.request(new ChatRequest(randomUUID(), "huge"));
    expect(huge.result.failure?.code).toBe("MODULE_FAILED");
    client.close();
  });

  it("refuses a client of another protocol version with a translatable reason", async () => {
    const refused = connect(server.tcp, { protocolVersion: PROTOCOL_VERSION + 1 });
    await expect(refused).rejects.toBeInstanceOf(ProtocolRefusedError);
    await expect(refused).rejects.toMatchObject({
      serverVersion: PROTOCOL_VERSION,
      reason: translatable(
        "system.protocol.version_mismatch",
        String(PROTOCOL_VERSION + 1),
        String(PROTOCOL_VERSION),
      ),
    });
    const client = await connect(server.tcp);
    expect((await client.request(new ChatRequest(randomUUID(), "after refusal"))).result.isSuccess()).toBe(
      true,
    );
    client.close();
  });

  it("answers garbage and unknown-id frames with INPUT_INVALID notices and closes on a huge length", async () => {
    const socket = await rawSocket(server.tcp.port);
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write(frame(encodeHello({ protocolVersion: PROTOCOL_VERSION, client: "raw" })));
    socket.write(frame(Uint8Array.from([200, 1, 2, 3]))); // unknown numeric id
    socket.write(frame(Uint8Array.from([SystemRequestTypes.builtin().numericId("system:chat")!, 1, 2]))); // truncated
    await expect.poll(() => Buffer.concat(received).length > 20, { timeout: 10_000 }).toBe(true);
    const noticeId = SystemResponseTypes.builtin().numericId("system:notice")!;
    const text = Buffer.concat(received).toString("latin1");
    expect(text).toContain("system.error.input_invalid");
    expect(Buffer.concat(received).includes(noticeId)).toBe(true);
    socket.write(Buffer.from([0x7f, 0xff, 0xff, 0xff]));
    await closed;

    const client = await connect(server.tcp);
    expect((await client.request(new ChatRequest(randomUUID(), "alive"))).result.isSuccess()).toBe(true);
    client.close();
  });

  it("survives random frames and random byte streams from many connections", async () => {
    const random = (length: number) => Uint8Array.from({ length }, () => Math.floor(Math.random() * 256));
    const connections = Array.from({ length: 20 }, async (_, index) => {
      const socket = await rawSocket(server.tcp.port);
      socket.on("data", () => {});
      const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
      if (index % 2 === 0)
        socket.write(frame(encodeHello({ protocolVersion: PROTOCOL_VERSION, client: "fuzz" })));
      for (let count = 0; count < 30; count++)
        socket.write(index % 4 === 1 ? random(64) : frame(random(Math.floor(Math.random() * 300))));
      socket.end();
      await closed;
    });
    await Promise.all(connections);
    const client = await connect(server.tcp);
    expect((await client.request(new ChatRequest(randomUUID(), "after fuzz"))).result.isSuccess()).toBe(true);
    client.close();
  });

  it("closes a connection that never sends a hello", async () => {
    const quiet = await listenFrames({}, (channel) =>
      acceptProtocol(channel, {
        requestTypes: SystemRequestTypes.builtin(),
        responseTypes: SystemResponseTypes.builtin(),
        handle: () => {},
        handshakeMillis: 100,
      }),
    );
    const socket = await rawSocket(quiet.port);
    await new Promise<void>((resolve) => socket.on("close", () => resolve()));
    await quiet.close();
  });

  it("closes a connection whose first frame is not a hello", async () => {
    const socket = await rawSocket(server.tcp.port);
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write(frame(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff])));
    await closed;
  });

  it("speaks the same protocol over a WebSocket", async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${server.wsPort}`);
    await new Promise((resolve) => socket.once("open", resolve));
    const client = await ProtocolClient.connect(new WebSocketFrameChannel(socket), { client: "panel" });
    const notices: AgentResponse[] = [];
    client.onResponse((response) => notices.push(response));
    const requestId = randomUUID();
    const reply = await client.request(new ChatRequest(requestId, "from the panel"));
    expect(reply).toBeInstanceOf(ReplyResponse);
    expect(reply.requestId).toBe(requestId);
    expect(client.cards.cards()).toHaveLength(1);
    expect(notices.filter((notice) => notice instanceof NoticeResponse)).toEqual([]);
    client.close();
  });
});
