import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { blockedHostName } from "./address-policy.js";
import { screenAddress } from "./address-screen.js";
import { formatIpAddress, type IpAddress, parseIpAddress } from "./ip-address.js";

/** Limits of one guarded fetch. */
export interface FetchLimits {
  readonly maxBytes: number;
  readonly timeoutMillis: number;
  readonly maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = Object.freeze({
  maxBytes: 512 * 1024,
  timeoutMillis: 10_000,
  maxRedirects: 3,
});

/** A page as fetched: the final URL after redirects, its content type and decoded text. */
export interface FetchedPage {
  readonly url: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** A fetch the guard refused or that failed; `reason` is safe to show to the model. */
export class FetchRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "FetchRefused";
  }
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export interface GuardOptions {
  /** `host:port` pairs allowed even though their address is private (tests: the loopback test server only). */
  readonly allow?: readonly string[];
  readonly limits?: FetchLimits;
  readonly resolve?: Resolver;
}

const defaultResolve: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * An SSRF-guarded HTTP(S) GET: http/https only, no credentials in URLs; the host is resolved and every address
 * must be public (or allow-listed as exactly `host:port`); the connection is pinned to the checked address so a
 * second DNS answer cannot redirect it; redirects are followed by hand and each hop is checked again; the
 * body is capped in bytes and the whole fetch in time.
 */
export class GuardedFetcher {
  readonly #allow: ReadonlySet<string>;
  readonly #limits: FetchLimits;
  readonly #resolve: Resolver;

  constructor(options: GuardOptions = {}) {
    this.#allow = new Set((options.allow ?? []).map((entry) => entry.toLowerCase()));
    this.#limits = options.limits ?? DEFAULT_FETCH_LIMITS;
    this.#resolve = options.resolve ?? defaultResolve;
  }

  get limits(): FetchLimits {
    return this.#limits;
  }

  /** Fetches a URL; throws FetchRefused for refused targets, oversize bodies, timeouts and HTTP errors. */
  async fetch(url: string, signal?: AbortSignal): Promise<FetchedPage> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new FetchRefused("timed out")),
      this.#limits.timeoutMillis,
    );
    const forward = (): void => controller.abort(new FetchRefused("cancelled"));
    signal?.addEventListener("abort", forward, { once: true });
    try {
      let current = url;
      for (let hop = 0; ; hop++) {
        const target = await this.check(current);
        const response = await this.#get(target, controller.signal);
        const location = response.headers.location;
        if (
          response.statusCode !== undefined &&
          response.statusCode >= 300 &&
          response.statusCode < 400 &&
          location !== undefined
        ) {
          response.destroy();
          if (hop >= this.#limits.maxRedirects)
            throw new FetchRefused(`more than ${this.#limits.maxRedirects} redirects`);
          current = new URL(location, target.url).href;
          continue;
        }
        return await this.#read(target.url.href, response, controller.signal);
      }
    } catch (error) {
      if (error instanceof FetchRefused) throw error;
      const reason = controller.signal.reason;
      if (reason instanceof FetchRefused) throw reason;
      throw new FetchRefused(
        `fetch failed (${error instanceof Error ? error.message.slice(0, 120) : "error"})`,
      );
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", forward);
    }
  }

  /**
   * Checks one URL and resolves its host; every address must parse and pass the address screen (unless
   * allow-listed). The returned address is the canonical text of the first one, which the connection must use.
   */
  async check(text: string): Promise<{ url: URL; address: string; family: number }> {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new FetchRefused("not a valid URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new FetchRefused(`scheme ${url.protocol} is not allowed`);
    if (url.username !== "" || url.password !== "")
      throw new FetchRefused("credentials in URLs are not allowed");
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const port = url.port === "" ? (url.protocol === "https:" ? "443" : "80") : url.port;
    const allowed = this.#allow.has(`${host.toLowerCase()}:${port}`);
    const byName = blockedHostName(host);
    if (byName !== undefined && !allowed) throw new FetchRefused(byName);
    // A colon only appears in a URL host inside IPv6 brackets, so such a host is a literal even if it fails to parse.
    let answers: readonly string[];
    if (isIP(host) !== 0 || host.includes(":")) answers = [host];
    else {
      try {
        answers = (await this.#resolve(host)).map((answer) => answer.address);
      } catch {
        throw new FetchRefused(`cannot resolve ${host}`);
      }
    }
    if (answers.length === 0) throw new FetchRefused(`cannot resolve ${host}`);
    const checked = answers.map((answer) => {
      const result = allowed ? parseIpAddress(answer) : screenAddress(answer);
      if (!result.success) throw new FetchRefused(result.error);
      return result.value;
    });
    // A name connects through the pinned lookup to the canonical text of the bytes just checked, never the
    // resolver's own spelling; a literal host connects as the URL wrote it, already in that same canonical form.
    const first = checked[0] as IpAddress;
    return { url, address: formatIpAddress(first), family: first.family };
  }

  #get(target: { url: URL; address: string; family: number }, signal: AbortSignal): Promise<IncomingMessage> {
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all === true) callback(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    };
    const request = target.url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const outgoing = request(target.url, {
        method: "GET",
        lookup: pinned,
        // No shared keep-alive pool: pooled sockets are keyed by host name and port, so one opened by another
        // client (or under another allow list) would carry this request to an address this guard never checked.
        agent: false,
        signal,
        headers: {
          "user-agent": "System-Minecraft-Assistant/0.1",
          accept: "text/html,text/plain,application/json;q=0.8,*/*;q=0.1",
        },
      });
      outgoing.on("response", resolve);
      outgoing.on("error", reject);
      outgoing.end();
    });
  }

  async #read(url: string, response: IncomingMessage, signal: AbortSignal): Promise<FetchedPage> {
    const status = response.statusCode ?? 0;
    const contentType = String(response.headers["content-type"] ?? "");
    if (status < 200 || status >= 300) {
      response.destroy();
      throw new FetchRefused(`HTTP status ${status}`);
    }
    if (contentType !== "" && !/^(text\/|application\/(json|xhtml\+xml|xml))/i.test(contentType)) {
      response.destroy();
      throw new FetchRefused(`content type ${contentType.slice(0, 60)} is not text`);
    }
    const declared = Number(response.headers["content-length"] ?? "NaN");
    if (Number.isFinite(declared) && declared > this.#limits.maxBytes) {
      response.destroy();
      throw new FetchRefused(`larger than ${this.#limits.maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response) {
      if (signal.aborted) break;
      size += (chunk as Buffer).length;
      if (size > this.#limits.maxBytes) {
        response.destroy();
        throw new FetchRefused(`larger than ${this.#limits.maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    if (signal.aborted)
      throw signal.reason instanceof FetchRefused ? signal.reason : new FetchRefused("cancelled");
    return { url, status, contentType, body: Buffer.concat(chunks).toString("utf8") };
  }
}
