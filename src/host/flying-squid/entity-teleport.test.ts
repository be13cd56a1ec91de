import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { roundTrip } from "../shared/wire.test-support.js";
import { teleportHasVelocity, teleportPacket } from "./entity-teleport.js";
import type { SquidServer } from "./flying-squid-types.js";

const server = (version: string): SquidServer =>
  ({ registry: createRequire(import.meta.url)("prismarine-registry")(version) }) as unknown as SquidServer;

describe("entity_teleport on 1.21.2+", () => {
  it("is rewritten only where the packet carries velocity", () => {
    expect(teleportHasVelocity(server("1.21.4"))).toBe(true);
    expect(teleportHasVelocity(server("1.21.1"))).toBe(false);
  });

  it("encodes flying-squid's teleport as a client decodes it, angles turned into degrees", () => {
    const packet = teleportPacket({ entityId: 7, x: 3.5, y: 5, z: -11, yaw: 64, pitch: -32, onGround: true });
    expect(roundTrip("1.21.4", "entity_teleport", packet).params).toMatchObject({
      entityId: 7,
      x: 3.5,
      y: 5,
      z: -11,
      dx: 0,
      yaw: 90,
      pitch: -45,
      onGround: true,
    });
  });
});
