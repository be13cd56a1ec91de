import { connect, type Socket } from "node:net";
import type { Languages } from "../../../util/language.js";
import type { Logger } from "../../../util/logger.js";
import type { GatewayCommands } from "../gateway-commands.js";
import type { LoginSettings } from "../identity/login-settings.js";
import { FrameConnection } from "../protocol/frame-connection.js";
import { PacketCodec } from "../protocol/packet-codec.js";
import { ProxiedPlayer } from "../proxied-player.js";
import type { ItemIds } from "../registry-sync/loader-syncs.js";

/** Where the backend listens. */
export interface BackendAddress {
  readonly host: string;
  readonly port: number;
}

/** What a new client connection needs to be relayed. */
export interface HandshakeOptions {
  readonly backend: BackendAddress;
  /** Decodes the handshake (its layout is the same in every version since 1.7). */
  readonly handshakeCodec: PacketCodec;
  readonly languages: Languages;
  readonly logger: Logger;
  readonly commands: GatewayCommands | undefined;
  /** Authentication and forwarding of each login. */
  readonly login: LoginSettings;
  /** Receives each player relayed with System (a login of a protocol version the gateway knows). */
  readonly onPlayer: (player: ProxiedPlayer) => void;
  /** The item numbers the server saved with its world (a fallback for connections without a loader sync). */
  readonly savedItems?: ItemIds | undefined;
}

/** The first byte of a pre-1.7 server list ping, which is not a framed packet. */
const LEGACY_PING = 0xfe;
/** `nextState` of a handshake that asks for the server list status. */
const STATUS = 1;

/**
 * The client's side of HANDSHAKING: reads the handshake and opens the backend connection for this client. A
 * status ping, and a login of a protocol version minecraft-data does not know, are relayed frame for frame
 * without System (the handshake as it came); a login the gateway can read becomes a ProxiedPlayer, which
 * sends the handshake once it knows who logs in (forwarding rewrites it). A pre-1.7 ping is relayed as a
 * plain byte stream.
 */
export const acceptClient = (socket: Socket, options: HandshakeOptions): void => {
  socket.on("error", () => socket.destroy());
  socket.once("data", (chunk: Buffer) => {
    socket.pause();
    socket.unshift(chunk);
    if (chunk[0] === LEGACY_PING) {
      relayBytes(socket, options.backend);
      return;
    }
    const client = new FrameConnection(socket);
    client.once("frame", (frame) => onHandshake(client, frame, options));
    socket.resume();
  });
};

const onHandshake = (client: FrameConnection, frame: Buffer, options: HandshakeOptions): void => {
  const handshake = options.handshakeCodec.decode("handshaking", "toServer", frame);
  if (handshake?.name !== "set_protocol") {
    client.close();
    return;
  }
  const backend = new FrameConnection(connect(options.backend.port, options.backend.host));
  const protocolVersion = handshake.params.protocolVersion as number;
  const codec = handshake.params.nextState === STATUS ? undefined : PacketCodec.forProtocol(protocolVersion);
  if (codec === undefined) {
    if (handshake.params.nextState !== STATUS)
      options.logger.info(`protocol ${protocolVersion} is unknown to minecraft-data: relayed without System`);
    backend.write(frame);
    relayFrames(client, backend);
    return;
  }
  options.onPlayer(
    new ProxiedPlayer({
      client,
      backend,
      codec,
      handshake,
      login: options.login,
      languages: options.languages,
      logger: options.logger,
      ...(options.commands === undefined ? {} : { commands: options.commands }),
      ...(options.savedItems === undefined ? {} : { savedItems: options.savedItems }),
    }),
  );
};

/**
 * Relays frames both ways without reading them. Compressed frames keep their outer length, so this is exact
 * for any state of an offline-mode backend.
 */
const relayFrames = (client: FrameConnection, backend: FrameConnection): void => {
  client.on("frame", (frame, wire) => backend.forward(frame, wire));
  backend.on("frame", (frame, wire) => client.forward(frame, wire));
  client.on("close", () => backend.close());
  backend.on("close", () => client.close());
};

const relayBytes = (socket: Socket, address: BackendAddress): void => {
  const backend = connect(address.port, address.host);
  backend.on("error", () => socket.destroy());
  socket.on("close", () => backend.destroy());
  backend.on("close", () => socket.destroy());
  socket.pipe(backend);
  backend.pipe(socket);
  socket.resume();
};
