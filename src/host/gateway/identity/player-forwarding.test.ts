import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  legacyForwardingHost,
  modernForwardingData,
  modernForwardingVersion,
  requestedForwardingVersion,
} from "./player-forwarding.js";

const PROFILE = {
  id: "069a79f4-44e9-4726-a5be-fca90e38aaf5",
  name: "Notch",
  properties: [{ name: "textures", value: "dGV4", signature: "c2ln" }],
};

describe("player forwarding", () => {
  it("writes the legacy address with the properties as JSON, and the BungeeGuard token last", () => {
    expect(legacyForwardingHost("mc.example.org", "10.0.0.5", PROFILE, "token").split("\0")).toEqual([
      "mc.example.org",
      "10.0.0.5",
      "069a79f444e94726a5befca90e38aaf5",
      '[{"name":"textures","value":"dGV4","signature":"c2ln"},{"name":"bungeeguard-token","value":"token","signature":""}]',
    ]);
  });

  it("signs the modern payload with HMAC-SHA256 over exactly the payload's bytes", () => {
    const secret = Buffer.from("secret");
    const data = modernForwardingData(secret, 1, "127.0.0.1", PROFILE);
    const payload = data.subarray(32);
    expect(data.subarray(0, 32)).toEqual(createHmac("sha256", secret).update(payload).digest());
    // version 1, "127.0.0.1", the 16 UUID bytes, "Notch", one property with its signature
    expect(payload.toString("hex")).toBe(
      [
        "01",
        `09${Buffer.from("127.0.0.1").toString("hex")}`,
        "069a79f444e94726a5befca90e38aaf5",
        `05${Buffer.from("Notch").toString("hex")}`,
        "01",
        `08${Buffer.from("textures").toString("hex")}`,
        `04${Buffer.from("dGV4").toString("hex")}`,
        "01",
        `04${Buffer.from("c2ln").toString("hex")}`,
      ].join(""),
    );
  });

  it("answers the version asked where it can: lazy sessions (4) on 1.19.3+, otherwise the default (1)", () => {
    expect(requestedForwardingVersion(Buffer.of(4))).toBe(4);
    expect(requestedForwardingVersion(Buffer.alloc(0))).toBe(1);
    expect(modernForwardingVersion(4, 769)).toBe(4);
    expect(modernForwardingVersion(9, 769)).toBe(4);
    expect(modernForwardingVersion(3, 769)).toBe(1);
    expect(modernForwardingVersion(4, 760)).toBe(1);
  });
});
