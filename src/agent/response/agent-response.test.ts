import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeFromBytes, encodeToBytes } from "../../util/stream-codec.js";
import { AgentFailure } from "../agent-failure.js";
import { AgentResult } from "../agent-result.js";
import { CardBuilder } from "../card/card-builder.js";
import { CardRegistry } from "../card/card-registry.js";
import { removeCard, replaceCard, showCard } from "../card/card-update.js";
import { MESSAGE_CARD } from "../card/message-card.js";
import { ServerCards } from "../card/server-cards.js";
import { literal, translatable } from "../text.js";
import { AgentResponse } from "./agent-response.js";
import { BindingResponse } from "./binding-response.js";
import { HistoryResponse } from "./history-response.js";
import { NoticeResponse } from "./notice-response.js";
import { OpenResponse } from "./open-response.js";
import { decodeHello, decodeWelcome, encodeHello, encodeWelcome } from "./protocol-handshake.js";
import { PROTOCOL_VERSION } from "./protocol-version.js";
import { replyForResult } from "./reply-for-result.js";
import { ReplyResponse } from "./reply-response.js";
import { StateResponse } from "./state-response.js";
import { SystemResponseTypes } from "./system-response-types.js";

const REQUEST_ID = "6f9619ff-8b86-4d01-b42d-00cf4fc964ff";
const CARD = { id: "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9", version: 2 };

const roundTrip = <T extends AgentResponse>(response: T): T => {
  const decoded = AgentResponse.decode(encodeToBytes(AgentResponse.STREAM_CODEC, response));
  if (!decoded.success) throw new Error(decoded.error);
  return decoded.value as T;
};

const itemCard = CardBuilder.of(
  "system.card.message",
  literal("Diamond"),
  translatable("item.minecraft.diamond"),
)
  .button("system.card.message", "system:item_query", '{"query":"minecraft:diamond","page":1}')
  .labelledButton({
    labelKey: "system.card.message",
    labelArgs: ["2"],
    action: "system:item_query",
    args: [],
  })
  .withSpeech(literal("A diamond."), { voice: "narrator", priority: "high", interrupt: true })
  .build();

describe("AgentResponse.STREAM_CODEC", () => {
  it("registers the six built-in response types", () => {
    expect(SystemResponseTypes.builtin().ids().map(String).sort()).toEqual([
      "system:binding",
      "system:history",
      "system:notice",
      "system:open",
      "system:reply",
      "system:state",
    ]);
  });

  it("round-trips a ReplyResponse with its AgentResult and card, tied to the request id", () => {
    const result = AgentResult.success(translatable("system.card.message", "x", 3)).withPresentation({
      type: "system:message",
      data: { message: { kind: "literal", text: "x" }, failed: false },
    });
    const decoded = roundTrip(new ReplyResponse(REQUEST_ID, result, showCard(CARD, itemCard)));
    expect(decoded).toBeInstanceOf(ReplyResponse);
    expect(decoded.requestId).toBe(REQUEST_ID);
    expect(decoded.result.encode()).toEqual(result.encode());
    expect(decoded.card).toEqual(showCard(CARD, itemCard));
  });

  it("carries failures as codes and keys, and partial success as failure", () => {
    const failed = roundTrip(new ReplyResponse(REQUEST_ID, AgentResult.error(AgentFailure.BUSY)));
    expect(failed.result.failure).toEqual({ code: "BUSY", key: "system.error.busy", args: [] });
    expect(failed.card).toBeUndefined();
    const partial = roundTrip(
      new ReplyResponse(REQUEST_ID, AgentResult.success().partial(AgentFailure.TIMEOUT)),
    );
    expect(partial.result.isPartial()).toBe(true);
    expect(partial.result.isFailure()).toBe(true);
  });

  it("round-trips notices with REPLACE and REMOVE updates", () => {
    const replaced = roundTrip(new NoticeResponse(literal("reward delivered"), replaceCard(CARD, itemCard)));
    expect(replaced).toEqual(new NoticeResponse(literal("reward delivered"), replaceCard(CARD, itemCard)));
    const removed = roundTrip(
      new NoticeResponse(translatable("system.card.message", "bye"), removeCard(CARD)),
    );
    expect(removed.card).toEqual(removeCard(CARD));
  });

  it("round-trips navigation and binding enums by ordinal", () => {
    for (const target of ["CURRENT", "SIMPLE", "FULL"] as const)
      expect(roundTrip(new OpenResponse(target))).toEqual(new OpenResponse(target));
    for (const state of ["BOUND", "REVOKED", "INVALIDATED"] as const)
      expect(roundTrip(new BindingResponse(state))).toEqual(new BindingResponse(state));
    const open = SystemResponseTypes.builtin().numericId("system:open")!;
    expect(AgentResponse.decode(Uint8Array.from([open, 3])).success).toBe(false);
  });

  it("round-trips a StateResponse with commands, preferences and id tables", () => {
    const state = new StateResponse({
      protocolVersion: PROTOCOL_VERSION,
      commands: [{ literal: "item", usage: "/system item <query>" }],
      completions: ["item", "物品", "help"],
      preferences: { history: true, external: false },
      registries: {
        requestTypes: ["system:card_action", "system:chat"],
        responseTypes: ["system:reply"],
        cardTypes: ["system:message", "system:selection"],
      },
    });
    expect(roundTrip(state)).toEqual(state);
  });

  it("history entries carry no speech, no buttons and no card data", () => {
    const result = AgentResult.success(literal("Diamond")).withPresentation({
      type: "system:item",
      data: { id: "minecraft:diamond" },
    });
    const history = new HistoryResponse([
      { role: "user", requestId: "r1", at: 1_700_000_000_000, text: "查询物品 钻石" },
      { role: "assistant", requestId: "r1", at: 1_700_000_000_500, result, card: itemCard },
      {
        role: "assistant",
        requestId: "r2",
        at: 1_700_000_001_000,
        result: AgentResult.error(AgentFailure.BUSY),
      },
    ]);
    const decoded = roundTrip(history);
    expect(decoded.entries[0]).toEqual(history.entries[0]);
    const assistant = decoded.entries[1]!;
    if (assistant.role !== "assistant") throw new Error("expected an assistant entry");
    expect(assistant.card).toEqual({
      template: itemCard.template,
      arguments: itemCard.arguments,
      buttons: [],
    });
    expect(assistant.card).not.toHaveProperty("speech");
    expect(assistant.result.presentation).toBeUndefined();
    expect(assistant.result.message).toEqual(literal("Diamond"));
    const bytes = Buffer.from(encodeToBytes(AgentResponse.STREAM_CODEC, history));
    expect(bytes.includes("narrator")).toBe(false);
    expect(bytes.includes("A diamond.")).toBe(false);
    expect(bytes.includes("system:item_query")).toBe(false);
    expect(decoded.entries[2]).toMatchObject({ role: "assistant", requestId: "r2" });
  });

  it("cuts an over-long stored user turn at a character boundary instead of failing the frame", () => {
    const long = "钻".repeat(10_000);
    const decoded = roundTrip(new HistoryResponse([{ role: "user", requestId: "r", at: 0, text: long }]));
    const entry = decoded.entries[0]!;
    if (entry.role !== "user") throw new Error("expected a user entry");
    expect(long.startsWith(entry.text)).toBe(true);
    expect(Buffer.byteLength(entry.text)).toBeLessThanOrEqual(16_384);
    expect(entry.text.length).toBe(5461);
  });

  it("refuses unknown ids, truncation and random bytes without throwing", () => {
    expect(AgentResponse.decode(Uint8Array.from([77]))).toEqual({
      success: false,
      error: "unknown agent_response_type id 77",
    });
    const bytes = encodeToBytes(
      AgentResponse.STREAM_CODEC,
      new ReplyResponse(REQUEST_ID, AgentResult.silent()),
    );
    for (let length = 0; length < bytes.length; length++)
      expect(AgentResponse.decode(bytes.subarray(0, length)).success).toBe(false);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (random) => {
        expect(typeof AgentResponse.decode(random).success).toBe("boolean");
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses a reply whose result JSON is not an AgentResult", () => {
    const reply = SystemResponseTypes.builtin().numericId("system:reply")!;
    const json = Buffer.from(JSON.stringify({ status: "exploded" }));
    const frame = Uint8Array.from([
      reply,
      ...Buffer.from(REQUEST_ID.replaceAll("-", ""), "hex"),
      json.length,
      ...json,
      0,
    ]);
    expect(AgentResponse.decode(frame).success).toBe(false);
  });
});

describe("handshake frames", () => {
  it("round-trip hello and welcome", () => {
    const hello = decodeHello(
      encodeHello({ protocolVersion: PROTOCOL_VERSION, client: "panel" }),
      PROTOCOL_VERSION,
    );
    expect(hello).toEqual({ success: true, value: { protocolVersion: PROTOCOL_VERSION, client: "panel" } });
    const tables = { requestTypes: ["system:chat"], responseTypes: ["system:reply"], cardTypes: [] };
    expect(decodeWelcome(encodeWelcome({ accepted: true, protocolVersion: 1, tables }))).toEqual({
      success: true,
      value: { accepted: true, protocolVersion: 1, tables },
    });
    const reason = translatable("system.protocol.version_mismatch", "2", "1");
    expect(decodeWelcome(encodeWelcome({ accepted: false, protocolVersion: 1, reason }))).toEqual({
      success: true,
      value: { accepted: false, protocolVersion: 1, reason },
    });
  });

  it("reads the version of a hello from another version whatever follows it", () => {
    const future = Uint8Array.from([2, 0xff, 0xff, 0xff]);
    expect(decodeHello(future, PROTOCOL_VERSION)).toEqual({
      success: true,
      value: { protocolVersion: 2, client: "" },
    });
    expect(decodeFromBytes(AgentResponse.STREAM_CODEC, Uint8Array.from([])).success).toBe(false);
  });
});

describe("replyForResult", () => {
  it("shows a result's card as a new card, or as the next page of the card a button came from", () => {
    const cards = new CardRegistry();
    cards.register(MESSAGE_CARD);
    cards.freeze();
    const issued = new ServerCards();
    const first = replyForResult({
      requestId: REQUEST_ID,
      result: AgentResult.success(literal("a")),
      cards,
      issued,
    });
    expect(first.card?.op).toBe("SHOW");
    const next = replyForResult({
      requestId: REQUEST_ID,
      result: AgentResult.success(literal("b")),
      cards,
      issued,
      replacing: first.card!.ref.id,
    });
    expect(next.card).toMatchObject({ op: "REPLACE", ref: { id: first.card!.ref.id, version: 1 } });
    expect(
      replyForResult({ requestId: REQUEST_ID, result: AgentResult.silent(), cards, issued }).card,
    ).toBeUndefined();
  });
});
