import { createRequire } from "node:module";

/**
 * A typed facade over the parts of minecraft-protocol 1.68.0 the gateway uses: its encryption transform and its
 * per-state, per-version packet (de)serializers. The package has no types for
 * these deep modules; only what the gateway calls is declared here.
 */

/** AES-128-CFB8 from node's crypto, used synchronously through `update`. */
export interface StreamCipher {
  update(data: Buffer): Buffer;
}

/** A compiled protocol of one state and direction. */
export interface CompiledProtocol {
  parsePacketBuffer(
    type: "packet",
    buffer: Buffer,
  ): { data: { name: string; params: Record<string, unknown> }; metadata: { size: number } };
  createPacketBuffer(type: "packet", packet: { name: string; params: Record<string, unknown> }): Buffer;
}

interface Encryption {
  createCipher(secret: Buffer): StreamCipher;
  createDecipher(secret: Buffer): StreamCipher;
}
interface SerializerModule {
  createSerializer(options: { state: string; isServer: boolean; version: string }): {
    proto: CompiledProtocol;
  };
  createDeserializer(options: {
    state: string;
    isServer: boolean;
    version: string;
    noErrorLogging: boolean;
  }): { proto: CompiledProtocol };
}
type VarIntType = [
  read: (buffer: Buffer, offset: number) => { value: number; size: number },
  write: (value: number, buffer: Buffer, offset: number) => number,
  size: (value: number) => number,
];

const require = createRequire(import.meta.url);

export const encryption = require("minecraft-protocol/src/transforms/encryption.js") as Encryption;
const serializers = require("minecraft-protocol/src/transforms/serializer.js") as SerializerModule;
// protodef is minecraft-protocol's own dependency: resolved from there, not from ours
const protodef = createRequire(require.resolve("minecraft-protocol/package.json"))("protodef") as {
  types: { varint: VarIntType };
};
const varint = protodef.types.varint;

/** The protocol that decodes what `direction` sends in `state` (`toServer`: what clients send). */
export const compiledProtocol = (
  state: string,
  direction: "toClient" | "toServer",
  version: string,
): { decoder: CompiledProtocol; encoder: CompiledProtocol } => ({
  decoder: serializers.createDeserializer({
    state,
    isServer: direction === "toServer",
    version,
    noErrorLogging: true,
  }).proto,
  encoder: serializers.createSerializer({ state, isServer: direction === "toClient", version }).proto,
});

/** Reads a VarInt at `offset`; throws a partial-read error when the buffer ends inside it. */
export const readVarInt = (buffer: Buffer, offset: number): { value: number; size: number } =>
  varint[0](buffer, offset);

/** Writes `value` as a VarInt into a new buffer. */
export const varIntBuffer = (value: number): Buffer => {
  const buffer = Buffer.alloc(varint[2](value));
  varint[1](value, buffer, 0);
  return buffer;
};
