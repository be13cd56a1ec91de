import { ByteReader, ByteWriter, STRING, StreamDecodeError, VARINT } from "../../util/stream-codec.js";
import { invalid, type Validation, valid } from "../../util/validation.js";
import { TEXT_STREAM_CODEC } from "../card/card-stream-codecs.js";
import type { Text } from "../text.js";
import { REGISTRY_TABLES_STREAM_CODEC, type RegistryTables } from "./state-response.js";

/**
 * The first frame each way. Its first field is always the protocol version, so any version can read enough of
 * another version's handshake to refuse it politely.
 */
export interface ClientHello {
  readonly protocolVersion: number;
  readonly client: string;
}

/** The server's answer: accepted with its numeric id tables, or refused with a reason for the player. */
export type ServerWelcome =
  | { readonly accepted: true; readonly protocolVersion: number; readonly tables: RegistryTables }
  | { readonly accepted: false; readonly protocolVersion: number; readonly reason: Text };

const CLIENT_NAME = STRING(64);

export const encodeHello = (hello: ClientHello): Uint8Array => {
  const writer = new ByteWriter();
  VARINT.encode(hello.protocolVersion, writer);
  CLIENT_NAME.encode(hello.client, writer);
  return writer.toBytes();
};

/** Reads a hello; a hello of another version is returned with whatever follows ignored. */
export const decodeHello = (bytes: Uint8Array, expectedVersion: number): Validation<ClientHello> =>
  read(bytes, (reader) => {
    const protocolVersion = VARINT.decode(reader);
    if (protocolVersion !== expectedVersion) return { protocolVersion, client: "" };
    const client = CLIENT_NAME.decode(reader);
    reader.expectEnd();
    return { protocolVersion, client };
  });

export const encodeWelcome = (welcome: ServerWelcome): Uint8Array => {
  const writer = new ByteWriter();
  VARINT.encode(welcome.protocolVersion, writer);
  writer.writeByte(welcome.accepted ? 0 : 1);
  if (welcome.accepted) REGISTRY_TABLES_STREAM_CODEC.encode(welcome.tables, writer);
  else TEXT_STREAM_CODEC.encode(welcome.reason, writer);
  return writer.toBytes();
};

export const decodeWelcome = (bytes: Uint8Array): Validation<ServerWelcome> =>
  read(bytes, (reader) => {
    const protocolVersion = VARINT.decode(reader);
    const status = reader.readByte();
    let welcome: ServerWelcome;
    if (status === 0)
      welcome = { accepted: true, protocolVersion, tables: REGISTRY_TABLES_STREAM_CODEC.decode(reader) };
    else if (status === 1)
      welcome = { accepted: false, protocolVersion, reason: TEXT_STREAM_CODEC.decode(reader) };
    else throw new StreamDecodeError(`unknown handshake status ${status}`);
    reader.expectEnd();
    return welcome;
  });

const read = <T>(bytes: Uint8Array, body: (reader: ByteReader) => T): Validation<T> => {
  try {
    return valid(body(new ByteReader(bytes)));
  } catch (error) {
    if (error instanceof StreamDecodeError) return invalid(error.message);
    throw error;
  }
};
