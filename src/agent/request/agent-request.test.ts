import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Identifier } from "../../util/identifier.js";
import {
  ByteWriter,
  encodeToBytes,
  STRING,
  type StreamCodec,
  UUID,
  VARINT,
} from "../../util/stream-codec.js";
import { AgentRequest } from "./agent-request.js";
import { CardActionRequest } from "./card-action-request.js";
import { ChatRequest } from "./chat-request.js";
import { ControlRequest } from "./control-request.js";
import { InvokeRequest } from "./invoke-request.js";
import { PreferencesRequest } from "./preferences-request.js";
import { registerRequestType, SystemRequestTypes } from "./system-request-types.js";

const REQUEST_ID = "6f9619ff-8b86-4d01-b42d-00cf4fc964ff";
const CARD_ID = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9";

const roundTrip = (request: AgentRequest): AgentRequest => {
  const decoded = AgentRequest.decode(encodeToBytes(AgentRequest.STREAM_CODEC, request));
  if (!decoded.success) throw new Error(decoded.failure.args.join());
  return decoded.value;
};

const numericId = (id: Identifier): number => SystemRequestTypes.builtin().numericId(id)!;

describe("AgentRequest.STREAM_CODEC", () => {
  it("registers the five built-in request types by id", () => {
    expect(
      SystemRequestTypes.builtin()
        .ids()
        .map((id) => id.toString())
        .sort(),
    ).toEqual(["system:card_action", "system:chat", "system:control", "system:invoke", "system:preferences"]);
  });

  it("round-trips ChatRequest, including non-ASCII text", () => {
    const decoded = roundTrip(new ChatRequest(REQUEST_ID, "查看我的背包 🎒"));
    expect(decoded).toBeInstanceOf(ChatRequest);
    expect(decoded).toEqual(new ChatRequest(REQUEST_ID, "查看我的背包 🎒"));
  });

  it("round-trips InvokeRequest with and without input", () => {
    const withInput = new InvokeRequest(REQUEST_ID, {
      moduleId: Identifier.parse("system:item_query"),
      input: { query: "minecraft:diamond", page: 0 },
    });
    const decoded = roundTrip(withInput) as InvokeRequest;
    expect(decoded.call.moduleId.toString()).toBe("system:item_query");
    expect(decoded.call.input).toEqual({ query: "minecraft:diamond", page: 0 });
    const bare = roundTrip(
      new InvokeRequest(REQUEST_ID, { moduleId: Identifier.parse("system:player_query") }),
    );
    expect((bare as InvokeRequest).call).not.toHaveProperty("input");
  });

  it("encodes ControlRequest by ordinal and decodes the same singleton", () => {
    for (const control of ControlRequest.values()) expect(roundTrip(control)).toBe(control);
    const bytes = encodeToBytes(AgentRequest.STREAM_CODEC, ControlRequest.CANCEL);
    expect([...bytes]).toEqual([numericId(ControlRequest.TYPE), ControlRequest.CANCEL.ordinal]);
    expect(ControlRequest.values().map((value) => value.action)).toEqual([
      "STATE",
      "HISTORY",
      "CANCEL",
      "CLEAR",
      "OPEN_CURRENT",
      "OPEN_SIMPLE",
      "OPEN_FULL",
    ]);
  });

  it("refuses a control ordinal it does not know", () => {
    const bytes = Uint8Array.from([numericId(ControlRequest.TYPE), 99]);
    const decoded = AgentRequest.decode(bytes);
    expect(decoded).toEqual({
      success: false,
      failure: expect.objectContaining({ code: "INPUT_INVALID", args: ["unknown ordinal 99"] }),
    });
  });

  it("round-trips PreferencesRequest and CardActionRequest", () => {
    expect(roundTrip(new PreferencesRequest(false, true))).toEqual(new PreferencesRequest(false, true));
    const click = new CardActionRequest(REQUEST_ID, { id: CARD_ID, version: 3 }, "system:item_query", [
      '{"query":"minecraft:stone"}',
      "2",
    ]);
    expect(roundTrip(click)).toEqual(click);
  });

  it("refuses unknown numeric ids while decoding", () => {
    const decoded = AgentRequest.decode(Uint8Array.from([42, 0, 0]));
    expect(decoded).toEqual({
      success: false,
      failure: expect.objectContaining({ code: "INPUT_INVALID", args: ["unknown agent_request_type id 42"] }),
    });
  });

  it("refuses invalid module and action ids", () => {
    const writer = new ByteWriter().writeVarInt(numericId(InvokeRequest.TYPE));
    UUID.encode(REQUEST_ID, writer);
    STRING(256).encode("Not An Id!", writer);
    writer.writeByte(0);
    expect(AgentRequest.decode(writer.toBytes()).success).toBe(false);

    const click = new ByteWriter().writeVarInt(numericId(CardActionRequest.TYPE));
    UUID.encode(REQUEST_ID, click);
    UUID.encode(CARD_ID, click);
    VARINT.encode(1, click);
    STRING(256).encode("/op me", click);
    VARINT.encode(0, click);
    expect(AgentRequest.decode(click.toBytes()).success).toBe(false);
  });

  it("refuses truncated frames and trailing garbage", () => {
    const bytes = encodeToBytes(AgentRequest.STREAM_CODEC, new ChatRequest(REQUEST_ID, "hello"));
    for (let length = 0; length < bytes.length; length++)
      expect(AgentRequest.decode(bytes.subarray(0, length)).success).toBe(false);
    expect(AgentRequest.decode(Uint8Array.from([...bytes, 1])).success).toBe(false);
  });

  it("refuses chat text over the wire limit without reading it", () => {
    const writer = new ByteWriter().writeVarInt(numericId(ChatRequest.TYPE));
    UUID.encode(REQUEST_ID, writer);
    writer.writeVarInt(ChatRequest.MAX_TEXT_BYTES + 1);
    const decoded = AgentRequest.decode(writer.toBytes());
    expect(decoded.success).toBe(false);
    expect(() =>
      encodeToBytes(AgentRequest.STREAM_CODEC, new ChatRequest(REQUEST_ID, "x".repeat(20_000))),
    ).toThrow(RangeError);
  });

  it("never throws on random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(typeof AgentRequest.decode(bytes).success).toBe("boolean");
      }),
      { numRuns: 2000 },
    );
  });

  it("dispatches extension request types registered before freeze", () => {
    class PingRequest implements AgentRequest {
      static readonly TYPE = Identifier.parse("example:ping");
      readonly type = PingRequest.TYPE;
      constructor(readonly count: number) {}
      static readonly STREAM_CODEC = VARINT.map(
        (count) => new PingRequest(count),
        (ping: PingRequest) => ping.count,
      );
    }
    const registry = SystemRequestTypes.create();
    registerRequestType(registry, PingRequest.TYPE, PingRequest.STREAM_CODEC);
    registry.freeze();
    const codec = AgentRequest.streamCodec(registry);
    const decoded = AgentRequest.decode(encodeToBytes(codec, new PingRequest(7)), codec);
    expect(decoded).toEqual({ success: true, value: new PingRequest(7) });
    // The built-in codec does not know the extension's id.
    expect(AgentRequest.decode(encodeToBytes(codec, new PingRequest(7))).success).toBe(false);
    expect(() =>
      registerRequestType(registry, Identifier.parse("example:late"), VARINT as StreamCodec<never>),
    ).toThrow(/frozen/);
  });
});
