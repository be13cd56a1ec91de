import { connect, type Socket } from "node:net";
import { RconError } from "./rcon-error.js";
import {
  END_MARKER_TYPE,
  encodePacket,
  LOGIN_REFUSED_ID,
  PacketReader,
  RCON_TYPE,
  type RconPacket,
} from "./rcon-packet.js";

/** What the one request on its way listens to. */
interface Waiter {
  packet(packet: RconPacket): void;
  ended(error: RconError): void;
}

/**
 * One TCP connection to a backend's RCON port. It carries one request at a time: the caller (RconClient) never
 * starts an exchange before the previous one ended, and an exchange writes its end marker only once the first
 * fragment of the reply arrived, when the server has read the command. So the server never finds two requests
 * in one read.
 */
export class RconConnection {
  readonly #reader = new PacketReader();
  #waiter: Waiter | undefined;
  #ended: RconError | undefined;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      const { packets, error } = this.#reader.push(chunk);
      for (const packet of packets) this.#waiter?.packet(packet);
      if (error !== undefined) this.#end(new RconError("protocol", `RCON peer sent ${error}`, true));
    });
    socket.on("error", (error) => this.#end(lost(error.message)));
    socket.on("end", () => this.#end(lost("the backend closed the connection")));
    socket.on("close", () => this.#end(lost("the backend closed the connection")));
  }

  /** Opens a TCP connection, or rejects (`unavailable`, nothing sent) within `timeoutMillis`. */
  static open(host: string, port: number, timeoutMillis: number): Promise<RconConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new RconError("unavailable", `no RCON connection to ${host}:${port} in time`, false));
      }, timeoutMillis);
      socket.once("error", (error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(new RconError("unavailable", `RCON at ${host}:${port}: ${error.message}`, false));
      });
      socket.once("connect", () => {
        clearTimeout(timer);
        socket.removeAllListeners("error");
        resolve(new RconConnection(socket));
      });
    });
  }

  get alive(): boolean {
    return this.#ended === undefined;
  }

  /** Logs in; rejects `login_refused` when the backend answers with id -1. */
  login(password: string, id: number, deadline: number): Promise<void> {
    return this.#exchange(deadline, undefined, (finish) => {
      this.#write({ id, type: RCON_TYPE.login, body: password });
      return (packet) => {
        // a Source-engine server sends an empty response before the login answer; vanilla sends only the answer
        if (packet.type !== RCON_TYPE.loginResponse) return;
        if (packet.id === LOGIN_REFUSED_ID)
          finish(new RconError("login_refused", "the backend's RCON refused the password", true));
        else if (packet.id === id) finish();
      };
    });
  }

  /**
   * Runs one command: writes it, waits for the first fragment of the reply, then writes the end marker and
   * collects fragments until the marker's answer arrives. The fragments joined are the whole reply.
   */
  run(
    command: string,
    ids: { readonly command: number; readonly marker: number },
    deadline: number,
  ): Promise<string> {
    const fragments: string[] = [];
    let markerSent = false;
    return this.#exchange<string>(deadline, command, (finish) => {
      this.#write({ id: ids.command, type: RCON_TYPE.command, body: command });
      return (packet) => {
        if (packet.id === ids.command && packet.type === RCON_TYPE.response) {
          fragments.push(packet.body);
          if (!markerSent) {
            markerSent = true;
            this.#write({ id: ids.marker, type: END_MARKER_TYPE, body: "" });
          }
        } else if (packet.id === ids.marker && markerSent) finish(undefined, fragments.join(""));
      };
    });
  }

  /** Closes the connection; a request on its way fails with `error`. */
  destroy(error: RconError): void {
    this.#end(error);
  }

  #exchange<T = void>(
    deadline: number,
    command: string | undefined,
    start: (finish: (error?: RconError, value?: T) => void) => (packet: RconPacket) => void,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.#ended !== undefined) {
        reject(withCommand(this.#ended, command, false));
        return;
      }
      let done = false;
      const finish = (error?: RconError, value?: T): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.#waiter = undefined;
        if (error === undefined) resolve(value as T);
        else reject(withCommand(error, command, true));
      };
      const timer = setTimeout(
        () => {
          const error = new RconError("timeout", "no complete RCON reply in time", true);
          // a late reply would be taken for the next request's: this connection is done
          this.#end(error);
          finish(error);
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#waiter = { packet: start(finish), ended: (error) => finish(error) };
    });
  }

  #write(packet: RconPacket): void {
    // one write per packet: the server reads each request in one read
    this.socket.write(encodePacket(packet));
  }

  #end(error: RconError): void {
    if (this.#ended !== undefined) return;
    this.#ended = error;
    this.socket.destroy();
    this.#waiter?.ended(error);
  }
}

const lost = (reason: string): RconError => new RconError("connection_lost", `RCON: ${reason}`, true);

const withCommand = (error: RconError, command: string | undefined, sent: boolean): RconError =>
  new RconError(
    error.kind,
    command === undefined ? error.message : `${error.message} (command: ${command})`,
    sent && error.sent,
    command,
  );
