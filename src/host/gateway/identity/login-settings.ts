import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { invalid, type Validation, valid } from "../../../util/validation.js";
import { MojangAuthenticator } from "./mojang-auth.js";
import type { ForwardingMode } from "./player-forwarding.js";

/** How long the backend has to answer during login before the player is told it did not. */
export const LOGIN_TIMEOUT_MILLIS = 30_000;

/** How the gateway logs players in: who authenticates them, and how the backend learns who they are. */
export interface LoginSettings {
  readonly forwarding: ForwardingMode;
  /** The shared secret of `bungeeguard` (its token) and `velocity` (the HMAC key); unset for the others. */
  readonly secret: Buffer | undefined;
  /** Mojang authentication at the gateway (`onlineMode`); unset, players are taken by their name. */
  readonly authenticator: MojangAuthenticator | undefined;
  /** How long the backend may stay silent during a login; each frame it sends restarts the wait. */
  readonly loginTimeoutMillis: number;
}

/** Offline players, no forwarding: what the gateway does unless gateway.json says otherwise. */
export const PLAIN_LOGIN: LoginSettings = {
  forwarding: "none",
  secret: undefined,
  authenticator: undefined,
  loginTimeoutMillis: LOGIN_TIMEOUT_MILLIS,
};

/**
 * Whether the client's signed chat session may reach the backend: only when the backend knows the player by
 * the UUID Mojang signed the session's key for (authenticated at the gateway and forwarded). Otherwise the
 * backend sees another UUID and would kick the player for an invalid profile key.
 */
export const forwardsChatSessions = (settings: LoginSettings): boolean =>
  settings.authenticator !== undefined && settings.forwarding !== "none";

/** Whether a forwarding mode needs the shared secret. */
export const needsSecret = (mode: ForwardingMode): boolean => mode === "bungeeguard" || mode === "velocity";

/**
 * Reads the forwarding secret from its file: the whole text without surrounding whitespace (Velocity's
 * `forwarding.secret`, Paper's `proxies.velocity.secret`). A missing, unreadable or empty file is one line.
 */
export const readForwardingSecret = async (path: string): Promise<Validation<Buffer>> => {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return invalid(`the forwarding secret file ${path} cannot be read (${code})`);
  }
  const secret = text.trim();
  if (secret === "") return invalid(`the forwarding secret file ${path} is empty`);
  return valid(Buffer.from(secret, "utf8"));
};

/** What gateway.json says about logging players in. */
export interface LoginConfig {
  readonly forwarding: ForwardingMode;
  readonly forwardingSecretFile?: string | undefined;
  readonly onlineMode: boolean;
  readonly sessionServer?: string | undefined;
}

/**
 * The login settings of a gateway.json: reads the forwarding secret (relative paths from the data directory)
 * and makes the key pair of online mode. A missing or empty secret where the mode needs one is one line.
 */
export const prepareLogin = async (
  config: LoginConfig,
  dataDir: string,
  configPath: string,
  loginTimeoutMillis = LOGIN_TIMEOUT_MILLIS,
): Promise<Validation<LoginSettings>> => {
  let secret: Buffer | undefined;
  if (needsSecret(config.forwarding)) {
    if (config.forwardingSecretFile === undefined)
      return invalid(
        `forwarding "${config.forwarding}" needs a shared secret: set "forwardingSecretFile" in ${configPath} to a file holding the secret the backend has`,
      );
    const read = await readForwardingSecret(resolve(dataDir, config.forwardingSecretFile));
    if (!read.success) return read;
    secret = read.value;
  }
  return valid({
    forwarding: config.forwarding,
    secret,
    authenticator: config.onlineMode ? new MojangAuthenticator(config.sessionServer) : undefined,
    loginTimeoutMillis,
  });
};
