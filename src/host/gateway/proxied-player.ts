import type { Languages } from "../../util/language.js";
import type { Logger } from "../../util/logger.js";
import type { ChatComponent } from "../shared/chat-component.js";
import { systemChatBytes } from "../shared/chat-nbt.js";
import { type ChatDialect, chatDialect, chatPacket } from "../shared/chat-packets.js";
import type { Dialog } from "../shared/dialog.js";
import { validateDialog } from "../shared/dialog.js";
import { BackendConfigSession } from "./backend/config-session.js";
import { BackendLoginSession } from "./backend/login-session.js";
import { BackendPlaySession } from "./backend/play-session.js";
import { ClientConfigSession } from "./client/config-session.js";
import { ClientLoginSession } from "./client/login-session.js";
import { ClientPlaySession } from "./client/play-session.js";
import { commandTreeFrame, patchCommandTree } from "./command-tree-patch.js";
import { showDialogFrame, showsDialogs } from "./dialog/dialog-packets.js";
import { disconnectFrame, disconnectText } from "./disconnect-packet.js";
import type { GatewayCommands } from "./gateway-commands.js";
import { forwardedAddress, type GameProfile } from "./identity/game-profile.js";
import type { LoginSettings } from "./identity/login-settings.js";
import { legacyForwardingHost } from "./identity/player-forwarding.js";
import type { FrameConnection, WireFrame } from "./protocol/frame-connection.js";
import type { DecodedPacket, Direction, PacketCodec, ProtocolState } from "./protocol/packet-codec.js";
import { ItemRegistrySync } from "./registry-sync/item-registry-sync.js";
import type { ItemIds } from "./registry-sync/loader-syncs.js";
import type { SessionHandler, Verdict } from "./session-handler.js";

/**
 * Reads PLAY packets after they were relayed (live player state): it sees a frame only once it went on unchanged,
 * so it can neither alter nor delay one. `observe` must not throw; a throw is logged and the relay goes on.
 */
export interface PacketObserver {
  observes(direction: Direction, name: string): boolean;
  observe(direction: Direction, name: string, frame: Buffer): void;
}

/** What the gateway's metrics count of each frame a player's relay reads. */
export interface RelayTraffic {
  frame(direction: Direction, bytes: number, decoded: boolean): void;
}

/** The states a relayed player passes through after the handshake; each has a handler per side. */
type SessionState = Extract<ProtocolState, "login" | "configuration" | "play">;

/** What a player's relay needs besides its two connections. */
export interface ProxiedPlayerOptions {
  readonly client: FrameConnection;
  readonly backend: FrameConnection;
  /** The packet table of the client's protocol version (from its handshake). */
  readonly codec: PacketCodec;
  /** The client's handshake, sent to the backend once the player is known (rewritten by legacy forwarding). */
  readonly handshake: DecodedPacket;
  /** Authentication and forwarding. */
  readonly login: LoginSettings;
  readonly languages: Languages;
  readonly logger: Logger;
  /** System's commands in this player's tree and chat; unset, the gateway only relays. */
  readonly commands?: GatewayCommands;
  /** The item numbers the server saved with its world, for a connection whose loader sync is not seen. */
  readonly savedItems?: ItemIds | undefined;
}

/**
 * One player relayed through the gateway: the client's connection, the backend connection opened for it, and
 * the protocol state both share. Frames are relayed in order as they came; only the packets the current
 * state's handlers name are decoded. The state follows what the client acknowledges (`login_acknowledged`,
 * `finish_configuration`, `configuration_acknowledged`), the points at which the backend switches too.
 */
export class ProxiedPlayer {
  readonly client: FrameConnection;
  readonly backend: FrameConnection;
  readonly codec: PacketCodec;
  readonly login: LoginSettings;
  readonly languages: Languages;
  readonly logger: Logger;
  readonly commands: GatewayCommands | undefined;
  /** This connection's item numbers, learnt from the loader's registry sync as it is relayed. */
  readonly items: ItemRegistrySync;
  /** Who the gateway told the backend joined (the forwarded profile); undefined until the login is sent on. */
  profile: GameProfile | undefined;
  readonly #handshake: DecodedPacket;
  #loginTimer: NodeJS.Timeout | undefined;
  /** How chat components are written for this client's version. */
  readonly dialect: ChatDialect;
  /** Whether the client draws server dialogs (1.21.6+) and System's window is on: then it gets the window. */
  readonly windowed: boolean;
  /** The launcher's index in the client's dialog registry (set once the backend's registry was patched). */
  launcherIndex: number | undefined;
  /** The backend's last `declare_commands` frame (undecoded), which System's nodes are patched into. */
  backendCommandTree: Buffer | undefined;
  #state: SessionState = "login";
  /** The client's language from its `settings`; undefined until it sends them. */
  locale: string | undefined;
  /** The name the client logged in with, and the UUID the backend gave it. */
  username: string | undefined;
  uuid: string | undefined;
  /** Set when the backend ended the connection with its own disconnect packet, which the client already has. */
  #backendSaidGoodbye = false;
  /** Whether the backend connection was ever established (a refused one gets another reason). */
  #backendConnected = false;
  readonly #clientHandlers: Record<SessionState, SessionHandler>;
  readonly #backendHandlers: Record<SessionState, SessionHandler>;
  readonly #closeListeners: (() => void)[] = [];
  #observer: PacketObserver | undefined;
  /** Counts relayed frames and bytes (the gateway's metrics); none when unset. */
  traffic: RelayTraffic | undefined;

  constructor(options: ProxiedPlayerOptions) {
    this.client = options.client;
    this.backend = options.backend;
    this.codec = options.codec;
    this.login = options.login;
    this.#handshake = options.handshake;
    this.languages = options.languages;
    this.logger = options.logger;
    this.commands = options.commands;
    const saved = options.savedItems;
    this.items = new ItemRegistrySync(
      this.codec,
      saved === undefined ? (id) => this.codec.itemName(id) : (id) => saved.get(id),
      this.logger,
      () => this.username ?? "a player",
    );
    this.dialect = chatDialect((feature) => this.codec.supports(feature), this.codec.protocolVersion);
    this.windowed = options.commands?.window !== undefined && showsDialogs(this.codec);
    this.#clientHandlers = {
      login: new ClientLoginSession(this),
      configuration: new ClientConfigSession(this),
      play: new ClientPlaySession(this),
    };
    this.#backendHandlers = {
      login: new BackendLoginSession(this),
      configuration: new BackendConfigSession(this),
      play: new BackendPlaySession(this),
    };
    this.client.on("frame", (frame, wire) => this.#relay(frame, wire, "toServer"));
    this.backend.on("frame", (frame, wire) => this.#relay(frame, wire, "toClient"));
    // a compressed frame that does not inflate is no packet the gateway reads: it goes on as it came
    this.client.on("undecodable", (wire) => this.backend.forward(undefined, wire));
    this.backend.on("undecodable", (wire) => this.client.forward(undefined, wire));
    this.client.on("close", () => {
      this.#clearLoginTimer();
      this.backend.close();
      this.#closed();
    });
    this.#backendConnected = !this.backend.socket.connecting;
    this.backend.socket.once("connect", () => {
      this.#backendConnected = true;
    });
    this.backend.on("close", () => this.#backendClosed());
  }

  get state(): SessionState {
    return this.#state;
  }

  /** Moves both sides to `state` from the next frame on. */
  switchState(state: SessionState): void {
    this.#state = state;
    if (state !== "login") this.#clearLoginTimer();
  }

  /**
   * Starts the backend's side of the login for `profile` (authenticated, or taken by name): the handshake
   * (with the profile in its server address under legacy forwarding) and `login_start` (as it came unless
   * its name or UUID differ from the profile's). From here the backend must answer within the login timeout.
   */
  loginToBackend(profile: GameProfile, loginStart: DecodedPacket): void {
    this.profile = profile;
    this.username = profile.name;
    this.backend.write(this.#backendHandshake(profile));
    const { username, playerUUID } = loginStart.params;
    const same = username === profile.name && (playerUUID === undefined || playerUUID === profile.id);
    this.backend.write(
      same
        ? loginStart.frame
        : this.codec.encode("login", "toServer", "login_start", {
            ...loginStart.params,
            username: profile.name,
            ...(playerUUID === undefined ? {} : { playerUUID: profile.id }),
          }),
    );
    this.#armLoginTimer();
  }

  /** The backend ended the connection itself (its disconnect packet is relayed): no reason of ours follows. */
  backendSaidGoodbye(): void {
    this.#backendSaidGoodbye = true;
  }

  /** Disconnects the client with a translated reason in the current state, and closes the backend leg. */
  disconnect(key: string, args: readonly string[] = []): void {
    const frame = disconnectFrame(
      this.codec,
      this.#state,
      disconnectText(this.languages, this.locale, key, args),
    );
    if (frame !== undefined) this.client.write(frame);
    this.client.close();
    this.backend.close();
  }

  /**
   * Shows a component as a system message (`system_chat`, never `player_chat`, so signed chat is untouched);
   * dropped outside PLAY and once the client has left.
   */
  sendChat(component: ChatComponent): void {
    // 1.20.3+: the packet's bytes written directly (the encoder's, without building NBT tag objects)
    const id = this.dialect.nbtComponents ? this.codec.systemChatId() : undefined;
    const bytes = id === undefined ? undefined : systemChatBytes(id, component, this.dialect, false);
    if (bytes === undefined) this.send(chatPacket(this.dialect, component));
    else if (this.#state === "play" && !this.client.closed) this.client.write(bytes);
  }

  /** Writes a PLAY packet of the gateway's own to the client; dropped outside PLAY and once the client has left. */
  send(packet: { readonly name: string; readonly params: Record<string, unknown> }): void {
    if (this.#state !== "play" || this.client.closed) return;
    this.client.write(this.codec.encode("play", "toClient", packet.name, packet.params));
  }

  /**
   * Shows a dialog of System's (inline `show_dialog`, written by hand) once it passed the client's checks: a
   * dialog the client would refuse (and disconnect on) is logged and not sent. PLAY only, 1.21.6+ clients only.
   */
  showDialog(dialog: Dialog): boolean {
    if (!this.windowed || this.#state !== "play" || this.client.closed) return false;
    const checked = validateDialog(dialog);
    if (!checked.success) {
      this.logger.error(`a dialog for ${this.username ?? "a player"} was not sent: ${checked.error}`);
      return false;
    }
    this.client.write(showDialogFrame(this.codec, dialog));
    return true;
  }

  /**
   * Sends the player's command tree again (System's commands changed: a permission, a mode, a quota): the
   * backend's last tree with System's nodes patched in, or System's alone when the backend sent none.
   */
  resendCommandTree(): void {
    const tree = this.commands?.tree(this);
    if (tree === undefined || this.#state !== "play" || this.client.closed) return;
    const backend = this.backendCommandTree;
    const frame =
      backend === undefined
        ? commandTreeFrame(this.codec, tree)
        : (patchCommandTree(this.codec, backend, tree) ?? backend);
    this.client.write(frame);
  }

  /** Hands every relayed PLAY packet `observer` names to it, after the frame went on (one observer per player). */
  observe(observer: PacketObserver): void {
    this.#observer = observer;
  }

  /** Calls `listener` once when the client's connection has ended. */
  onClose(listener: () => void): void {
    this.#closeListeners.push(listener);
  }

  /** The backend let the player in (`success`): no login timeout from here on. */
  loginAnswered(): void {
    this.#clearLoginTimer();
  }

  #backendHandshake(profile: GameProfile): Buffer {
    const { forwarding, secret } = this.login;
    if (forwarding !== "bungeecord" && forwarding !== "bungeeguard") return this.#handshake.frame;
    const serverHost = legacyForwardingHost(
      this.#handshake.params.serverHost as string,
      forwardedAddress(this.client.socket.remoteAddress),
      profile,
      forwarding === "bungeeguard" ? secret?.toString("utf8") : undefined,
    );
    return this.codec.encode("handshaking", "toServer", "set_protocol", {
      ...this.#handshake.params,
      serverHost,
    });
  }

  #armLoginTimer(): void {
    this.#clearLoginTimer();
    if (this.client.closed) return;
    this.#loginTimer = setTimeout(() => {
      this.logger.warn(
        `the backend did not answer ${this.username ?? "a player"}'s login within ${this.login.loginTimeoutMillis / 1000} s`,
      );
      this.disconnect("system.gateway.backend_timeout");
    }, this.login.loginTimeoutMillis);
    this.#loginTimer.unref();
  }

  #clearLoginTimer(): void {
    clearTimeout(this.#loginTimer);
    this.#loginTimer = undefined;
  }

  #relay(frame: Buffer, wire: WireFrame, direction: Direction): void {
    // a backend that still talks during login (plugin messages, a slow modded handshake) gets a new wait
    if (direction === "toClient" && this.#loginTimer !== undefined) this.#armLoginTimer();
    const handler = (direction === "toServer" ? this.#clientHandlers : this.#backendHandlers)[this.#state];
    const target = direction === "toServer" ? this.backend : this.client;
    const state = this.#state;
    const name = this.codec.nameOf(state, direction, frame);
    let verdict: Verdict = "relay";
    let decoded = false;
    if (name !== undefined && handler.undecoded?.has(name))
      verdict = handler.handle({ name, params: {}, frame });
    else if (name !== undefined && handler.reads.has(name)) {
      const packet = this.codec.decode(state, direction, frame);
      decoded = packet !== undefined;
      if (packet !== undefined) verdict = handler.handle(packet);
    }
    this.traffic?.frame(direction, frame.length, decoded);
    if (verdict === "relay") target.forward(frame, wire);
    // the loader's registry sync is read after its frame went on, whatever the handler did with it
    if (this.items.reads(state, direction, name)) this.items.observe(state, frame);
    this.#observed(state, direction, name, frame);
  }

  /** The observer reads a PLAY frame once it was relayed (or consumed: the backend's `login`, written on by its handler). */
  #observed(state: SessionState, direction: Direction, name: string | undefined, frame: Buffer): void {
    const observer = this.#observer;
    if (
      state !== "play" ||
      name === undefined ||
      observer === undefined ||
      !observer.observes(direction, name)
    )
      return;
    try {
      observer.observe(direction, name, frame);
    } catch (error) {
      this.logger.error(`reading ${name} of ${this.username ?? "a player"} failed`, error);
    }
  }

  #backendClosed(): void {
    this.#clearLoginTimer();
    if (this.client.closed) return;
    if (this.#backendSaidGoodbye) this.client.close();
    else if (this.#backendConnected) this.disconnect("system.gateway.backend_lost");
    else {
      const reason = (this.backend.error as NodeJS.ErrnoException | undefined)?.code ?? "closed";
      this.logger.warn(
        `the backend is not reachable (${reason}): ${this.username ?? "a player"} could not join`,
      );
      this.disconnect("system.gateway.backend_unreachable");
    }
  }

  #closed(): void {
    for (const listener of this.#closeListeners.splice(0)) listener();
  }
}
