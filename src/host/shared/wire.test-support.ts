import { createRequire } from "node:module";

interface PacketCodec {
  createPacketBuffer(packet: { name: string; params: unknown }): Buffer;
  parsePacketBuffer(buffer: Buffer): { data: { name: string; params: Record<string, unknown> } };
}

const protocol = createRequire(import.meta.url)("minecraft-protocol") as {
  createSerializer(options: { state: string; isServer: boolean; version: string }): PacketCodec;
  createDeserializer(options: { state: string; isServer: boolean; version: string }): PacketCodec;
};

/** Encodes a clientbound play packet with minecraft-protocol and decodes it as a client would. */
export const roundTrip = (
  version: string,
  name: string,
  params: unknown,
): { name: string; params: Record<string, unknown> } => {
  const serializer = protocol.createSerializer({ state: "play", isServer: true, version });
  const deserializer = protocol.createDeserializer({ state: "play", isServer: false, version });
  return deserializer.parsePacketBuffer(serializer.createPacketBuffer({ name, params })).data;
};
