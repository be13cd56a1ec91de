import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import type { AssistantServer } from "../../assistant/assistant-server.js";
import type { BindingOffer, PanelBindings } from "../../module/builtin/panel/panel-bindings.js";
import { WebSocketFrameChannel } from "../../util/frame-transport.js";
import type { Logger } from "../../util/logger.js";
import type { HostTelemetry } from "../shared/telemetry/host-telemetry.js";
import { TelemetryHistory } from "../shared/telemetry/telemetry-history.js";
import { renderAdminPage } from "./admin-page.js";
import type { BindingCodes } from "./binding-codes.js";
import type { PanelConfig } from "./panel-config.js";
import { PanelConnections } from "./panel-connections.js";
import type { PanelSessions } from "./panel-sessions.js";

const SESSION_COOKIE = "system_session";
const CSRF_COOKIE = "system_csrf";
const MAX_BODY_BYTES = 1_024;

/** The static files of the panel (built and shipped in `resources/panel/`). */
const STATIC: Readonly<Record<string, { file: string; type: string }>> = {
  "/": { file: "panel/index.html", type: "text/html; charset=utf-8" },
  "/panel.js": { file: "panel/panel.js", type: "text/javascript; charset=utf-8" },
  "/panel.css": { file: "panel/panel.css", type: "text/css; charset=utf-8" },
  "/admin.js": { file: "panel/admin.js", type: "text/javascript; charset=utf-8" },
  "/lang/en_us.json": { file: "assets/system/lang/en_us.json", type: "application/json; charset=utf-8" },
  "/lang/zh_cn.json": { file: "assets/system/lang/zh_cn.json", type: "application/json; charset=utf-8" },
};

const cookiesOf = (request: IncomingMessage): Map<string, string> => {
  const cookies = new Map<string, string>();
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index > 0) cookies.set(part.slice(0, index).trim(), part.slice(index + 1).trim());
  }
  return cookies;
};

/**
 * The web panel's HTTP side on `panel.json`'s host and port: the page, the binding API and the WebSocket that
 * carries the binary protocol. Opened before the assistant (so `/system bind` knows the address), it serves
 * requests once `serve(assistant)` ran; until then it answers 503. Every state-changing request checks the Origin
 * and a double-submit CSRF token; the session cookie is httpOnly and SameSite=Strict; wrong codes lock a client
 * out; WebSocket upgrades must come from the panel's own origin with a bound session.
 */
export class PanelServer implements PanelBindings {
  readonly #sockets = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });
  #connections: PanelConnections | undefined;
  /** What the operators' page charts, sampled from the metrics registry; absent when metrics are off. */
  readonly #history: TelemetryHistory | undefined;

  private constructor(
    private readonly http: Server,
    readonly url: string,
    private readonly options: {
      readonly config: PanelConfig;
      readonly codes: BindingCodes;
      readonly sessions: PanelSessions;
      readonly resources: string;
      readonly logger: Logger;
      /** `/metrics` on the panel's address (loopback, or a bearer token); absent: 404. */
      readonly telemetry?: HostTelemetry;
    },
  ) {
    const metrics = options.telemetry?.metrics;
    this.#history = metrics === undefined ? undefined : new TelemetryHistory(metrics);
  }

  static async open(options: {
    readonly config: PanelConfig;
    readonly codes: BindingCodes;
    readonly sessions: PanelSessions;
    readonly resources: string;
    readonly logger: Logger;
    readonly telemetry?: HostTelemetry;
  }): Promise<PanelServer> {
    const http = createServer();
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(options.config.port, options.config.host, () => {
        http.off("error", reject);
        resolve();
      });
    });
    const { port } = http.address() as AddressInfo;
    const panel = new PanelServer(http, `http://${options.config.host}:${port}`, options);
    http.on("request", (request, response) => {
      panel.#request(request, response).catch((error: unknown) => {
        options.logger.error("panel request failed", error);
        if (!response.headersSent) response.writeHead(500).end();
      });
    });
    http.on("upgrade", (request, socket, head) => panel.#upgrade(request, socket, head));
    return panel;
  }

  /** Starts serving the assistant's requests (requests before this get 503). */
  serve(assistant: AssistantServer): void {
    this.#connections = new PanelConnections(assistant, this.options.sessions, this.options.logger);
  }

  offer(playerId: string): BindingOffer {
    const code = this.options.codes.issue(playerId);
    return { code, url: this.url, minutes: Math.round(this.options.codes.ttlMillis / 60_000) };
  }

  async unbind(playerId: string): Promise<number> {
    const ended = await this.options.sessions.endPlayer(playerId);
    this.#connections?.ended(playerId, "REVOKED");
    return ended;
  }

  /** A reset forgot the player: open panels show INVALIDATED and their sessions end. */
  async invalidate(playerId: string): Promise<void> {
    await this.options.sessions.endPlayer(playerId);
    this.#connections?.ended(playerId, "INVALIDATED");
  }

  async close(): Promise<void> {
    this.#history?.close();
    this.#connections?.closeAll();
    for (const client of this.#sockets.clients) client.terminate();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  async #request(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", this.url).pathname;
    const telemetry = this.options.telemetry;
    if (path === "/metrics" && telemetry !== undefined) return telemetry.answer(request, response);
    const headers = {
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "no-referrer",
      "Content-Security-Policy": `default-src 'self'; connect-src 'self' ${this.url.replace(/^http/u, "ws")}; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'`,
    };
    const cookies = cookiesOf(request);
    if (!cookies.has(CSRF_COOKIE))
      response.setHeader(
        "Set-Cookie",
        `${CSRF_COOKIE}=${randomBytes(18).toString("base64url")}; Path=/; SameSite=Strict`,
      );
    const asset = STATIC[path];
    if (request.method === "GET" && asset !== undefined) {
      const body = await readFile(join(this.options.resources, asset.file));
      response.writeHead(200, { ...headers, "Content-Type": asset.type }).end(body);
      return;
    }
    const json = (status: number, value: unknown, extra: Record<string, string | string[]> = {}): void => {
      response
        .writeHead(status, { ...headers, "Content-Type": "application/json", ...extra })
        .end(JSON.stringify(value));
    };
    const connections = this.#connections;
    if (connections === undefined) return json(503, { error: "starting" });
    const token = cookies.get(SESSION_COOKIE);
    if (request.method === "GET" && path === "/admin") {
      const playerId = this.options.sessions.playerOf(token);
      if (playerId === undefined || !connections.isAdmin(playerId)) {
        response
          .writeHead(403, { ...headers, "Content-Type": "text/html; charset=utf-8" })
          .end(
            '<!doctype html><title>System</title><p>Operators only: bind this browser as an operator who is online.</p><a href="/">Panel</a>',
          );
        return;
      }
      const described = connections.describe(playerId);
      const page = renderAdminPage(connections.assistant, described?.player ?? playerId, {
        locale: described?.locale ?? "en_us",
        charts: this.#history !== undefined,
      });
      response.writeHead(200, { ...headers, "Content-Type": "text/html; charset=utf-8" }).end(page);
      return;
    }
    if (request.method === "GET" && path === "/api/session") {
      const player = connections.describe(this.options.sessions.playerOf(token));
      return json(200, player === undefined ? { bound: false } : { bound: true, ...player });
    }
    if (request.method === "GET" && path === "/api/complete") {
      const playerId = this.options.sessions.playerOf(token);
      if (playerId === undefined) return json(403, { error: "forbidden" });
      const line = (new URL(request.url ?? "/", this.url).searchParams.get("line") ?? "").slice(0, 256);
      return json(200, { matches: await connections.complete(playerId, line) });
    }
    if (request.method !== "POST" || (path !== "/api/bind" && path !== "/api/unbind"))
      return json(404, { error: "not found" });
    // state changes: the page's own origin and the double-submit token only
    const origin = request.headers.origin;
    const csrf = request.headers["x-system-csrf"];
    if (
      (origin !== undefined && origin !== this.url) ||
      csrf === undefined ||
      csrf !== cookies.get(CSRF_COOKIE)
    )
      return json(403, { error: "forbidden" });
    if (path === "/api/unbind") {
      if (token !== undefined) {
        const player = this.options.sessions.playerOf(token);
        await this.options.sessions.end(token);
        if (player !== undefined) connections.endedToken(token, "REVOKED");
      }
      return json(
        200,
        { bound: false },
        { "Set-Cookie": `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0` },
      );
    }
    const body = await readBody(request);
    let code = "";
    try {
      const parsed = JSON.parse(body) as { code?: unknown };
      code = typeof parsed.code === "string" ? parsed.code.slice(0, 32) : "";
    } catch {
      return json(400, { error: "The request was not understood." });
    }
    const outcome = this.options.codes.redeem(code, request.socket.remoteAddress ?? "unknown");
    if (outcome.kind === "locked")
      return json(429, {
        error: `Too many wrong codes. Try again in ${Math.ceil(outcome.retryAfterMillis / 60_000)} minutes.`,
      });
    if (outcome.kind === "wrong")
      return json(400, {
        error: "That code is wrong or has expired. Type /system bind in the game for a new one.",
      });
    const session = await this.options.sessions.create(outcome.playerId);
    const described = connections.describe(outcome.playerId) ?? { player: outcome.playerId, locale: "en_us" };
    return json(200, described, {
      "Set-Cookie": `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${30 * 24 * 3600}`,
    });
  }

  #upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refusal = this.#refusal(request);
    if (refusal !== undefined) {
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\n\r\n`);
      return;
    }
    const connections = this.#connections as PanelConnections;
    const token = cookiesOf(request).get(SESSION_COOKIE) as string;
    const playerId = this.options.sessions.playerOf(token) as string;
    if (new URL(request.url ?? "/", this.url).pathname === "/ws/admin") {
      const history = this.#history;
      if (history === undefined || !connections.isAdmin(playerId)) {
        socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n");
        return;
      }
      this.#sockets.handleUpgrade(request, socket, head, (ws) =>
        adminCharts(ws, history, this.options.logger),
      );
      return;
    }
    this.#sockets.handleUpgrade(request, socket, head, (ws) => {
      connections.open(new WebSocketFrameChannel(ws), playerId, token);
    });
  }

  /** Why a WebSocket upgrade is refused: not the panel's socket, another origin, or no bound session. */
  #refusal(request: IncomingMessage): string | undefined {
    const path = new URL(request.url ?? "/", this.url).pathname;
    if ((path !== "/ws" && path !== "/ws/admin") || this.#connections === undefined) return "404 Not Found";
    if (request.headers.origin !== this.url) return "403 Forbidden";
    if (this.options.sessions.playerOf(cookiesOf(request).get(SESSION_COOKIE)) === undefined)
      return "401 Unauthorized";
    return undefined;
  }
}

/** How often the operators' page gets a new snapshot of the charts. */
const CHART_REFRESH_MILLIS = 5_000;

/** Sends the operators' page a snapshot of the charts at once and every few seconds until it closes. */
const adminCharts = (socket: WebSocket, history: TelemetryHistory, logger: Logger): void => {
  const send = (): void => {
    history
      .snapshot()
      .then((snapshot) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(snapshot));
      })
      .catch((error: unknown) => logger.error("operators' charts failed", error));
  };
  send();
  const timer = setInterval(send, CHART_REFRESH_MILLIS);
  socket.on("close", () => clearInterval(timer));
  socket.on("message", () => {});
};

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("body too large"));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
