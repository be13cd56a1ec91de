import { connect } from "node:net";
import { invalid, type Validation, valid } from "../../util/validation.js";
import { type Address, formatAddress } from "./gateway-config.js";
import { FrameConnection } from "./protocol/frame-connection.js";
import { PacketCodec } from "./protocol/packet-codec.js";

/** How long the backend has to answer the status ping at start. */
export const BACKEND_PING_TIMEOUT_MILLIS = 5_000;

/** The version the status ping's own handshake announces; servers answer with theirs whatever it is. */
const PING_VERSION = "1.21.4";

/** What the backend's status ping told: the version it runs, as minecraft-data names it. */
export interface BackendStatus {
  readonly codec: PacketCodec;
  /** The backend's own name for its version (`Paper 1.21.4`, `1.21.4`). */
  readonly versionName: string;
}

interface StatusJson {
  readonly version?: { readonly name?: unknown; readonly protocol?: unknown };
}

/**
 * Pings the backend once (handshake, `ping_start`, `server_info`) and reads its protocol version. Every
 * failure is one line naming the address and what to do: not reachable, no answer in time, or a version
 * minecraft-data does not know.
 */
export const pingBackend = async (
  backend: Address,
  timeoutMillis = BACKEND_PING_TIMEOUT_MILLIS,
): Promise<Validation<BackendStatus>> => {
  const where = formatAddress(backend);
  const answer = await statusJson(backend, timeoutMillis);
  if (!answer.success) {
    if (answer.error === "timeout")
      return invalid(
        `backend ${where} did not answer a status ping within ${timeoutMillis / 1000} s: is a Minecraft server listening there?`,
      );
    return invalid(
      `backend ${where} is not reachable (${answer.error}): start the server there first, or fix --backend`,
    );
  }
  const protocol =
    typeof answer.value.version?.protocol === "number" ? answer.value.version.protocol : undefined;
  const versionName = typeof answer.value.version?.name === "string" ? answer.value.version.name : "unknown";
  const codec = protocol === undefined ? undefined : PacketCodec.forProtocol(protocol);
  if (codec === undefined)
    return invalid(
      `backend ${where} runs ${versionName} (protocol ${protocol ?? "?"}), which this System's minecraft-data does not know`,
    );
  return valid({ codec, versionName });
};

/** The status JSON, or an error: `timeout`, a socket error code, or `closed`. */
const statusJson = (backend: Address, timeoutMillis: number): Promise<Validation<StatusJson>> => {
  const codec = PacketCodec.forVersion(PING_VERSION)!;
  const socket = connect(backend.port, backend.host);
  const connection = new FrameConnection(socket);
  return new Promise((resolve) => {
    const finish = (result: Validation<StatusJson>): void => {
      clearTimeout(timer);
      resolve(result);
      socket.destroy();
    };
    const timer = setTimeout(() => finish(invalid("timeout")), timeoutMillis);
    socket.once("connect", () => {
      const handshake = {
        protocolVersion: codec.protocolVersion,
        serverHost: backend.host,
        serverPort: backend.port,
        nextState: 1,
      };
      connection.write(codec.encode("handshaking", "toServer", "set_protocol", handshake));
      connection.write(codec.encode("status", "toServer", "ping_start", {}));
    });
    connection.on("frame", (frame) => {
      const packet = codec.decode("status", "toClient", frame);
      if (packet?.name !== "server_info") return;
      try {
        finish(valid(JSON.parse(packet.params.response as string) as StatusJson));
      } catch {
        finish(invalid("an unreadable status answer"));
      }
    });
    connection.on("close", () =>
      finish(invalid((connection.error as NodeJS.ErrnoException | undefined)?.code ?? "closed")),
    );
  });
};
