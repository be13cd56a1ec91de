import { createServer, type Server, type Socket } from "node:net";
import type { Languages } from "../../util/language.js";
import type { Logger } from "../../util/logger.js";
import { acceptClient, type BackendAddress } from "./client/handshake-session.js";
import type { GatewayCommands } from "./gateway-commands.js";
import type { LoginSettings } from "./identity/login-settings.js";
import type { PacketCodec } from "./protocol/packet-codec.js";
import type { ProxiedPlayer, RelayTraffic } from "./proxied-player.js";
import type { ItemIds } from "./registry-sync/loader-syncs.js";

/** Where the gateway listens and what it relays to. */
export interface GatewayServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly backend: BackendAddress;
  /** The backend version's packet table (decodes handshakes). */
  readonly codec: PacketCodec;
  /** Authentication and forwarding of each login. */
  readonly login: LoginSettings;
  readonly languages: Languages;
  readonly logger: Logger;
  /** System's commands in players' trees and chat; unset, the gateway only relays. */
  readonly commands?: GatewayCommands;
  /** Counts relayed frames and bytes (metrics); nothing when unset. */
  readonly traffic?: RelayTraffic | undefined;
  /** The item numbers the server saved with its world (`level.dat`, `fabricRegistry.dat`), when it has some. */
  readonly savedItems?: ItemIds | undefined;
}

/**
 * The gateway's listener: every client connection gets its own backend connection and is relayed frame by
 * frame. A backend that goes away ends only its players' connections; the listener keeps accepting, and
 * each new join tries the backend again.
 */
export class GatewayServer {
  readonly #server: Server;
  readonly #players = new Set<ProxiedPlayer>();
  readonly #sockets = new Set<Socket>();

  private constructor(server: Server) {
    this.#server = server;
  }

  /** Starts listening; rejects when the address cannot be bound. */
  static listen(options: GatewayServerOptions): Promise<GatewayServer> {
    const server = createServer();
    const gateway = new GatewayServer(server);
    server.on("connection", (socket) => {
      gateway.#sockets.add(socket);
      socket.once("close", () => gateway.#sockets.delete(socket));
      acceptClient(socket, {
        backend: options.backend,
        handshakeCodec: options.codec,
        languages: options.languages,
        logger: options.logger,
        commands: options.commands,
        login: options.login,
        savedItems: options.savedItems,
        onPlayer: (player) => {
          player.traffic = options.traffic;
          gateway.#players.add(player);
          player.onClose(() => gateway.#players.delete(player));
        },
      });
    });
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, options.host, () => {
        server.off("error", reject);
        server.on("error", (error) => options.logger.error("gateway listener error", error));
        resolve(gateway);
      });
    });
  }

  /** The port actually bound (useful when 0 was asked for). */
  get port(): number {
    const address = this.#server.address();
    return typeof address === "object" && address !== null ? address.port : 0;
  }

  /** The players relayed now (past their handshake, any state). */
  players(): ProxiedPlayer[] {
    return [...this.#players];
  }

  /** Stops listening, tells every relayed player why, and closes every connection. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      for (const player of this.#players) player.disconnect("system.gateway.closing");
      const players = new Set(this.players().map((player) => player.client.socket));
      for (const socket of this.#sockets) if (!players.has(socket)) socket.destroy();
      // a client that does not close after its disconnect must not hold the gateway open
      setTimeout(() => {
        for (const socket of this.#sockets) socket.destroy();
      }, 2_000).unref();
    });
  }
}
