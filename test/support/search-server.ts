import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A page the server serves at `/page/<name>`. */
export interface TestPage {
  readonly status?: number;
  readonly contentType?: string;
  readonly body?: string;
  /** Sends a redirect (status 302 unless `status` says otherwise) to this location. */
  readonly redirect?: string;
  /** Sends the headers, then waits this long before the body (a slow page). */
  readonly delayMillis?: number;
}

/** One search result as SearXNG's JSON API returns it. */
export interface SearxResult {
  readonly title: string;
  readonly url: string;
  readonly content: string;
}

/**
 * A loopback stand-in for a SearXNG instance and the web it finds: `GET /search?q=…&format=json` answers from
 * `results`, `GET /page/<name>` serves `pages`. Every request is recorded, so tests can prove what was never
 * requested.
 */
export class SearchTestServer {
  readonly requests: { path: string; query: string | null }[] = [];
  /** The results of a search; a promise holds the answer until it settles. */
  results: (query: string) => SearxResult[] | Promise<SearxResult[]> = () => [];
  readonly pages = new Map<string, TestPage>();
  /** Answer searches with this HTTP status instead (provider failure). */
  searchStatus = 200;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<SearchTestServer> {
    let instance: SearchTestServer | undefined;
    const server = createServer((request, response) => instance?.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    instance = new SearchTestServer(server, (server.address() as AddressInfo).port);
    return instance;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The URL of a served page. */
  page(name: string): string {
    return `${this.origin}/page/${name}`;
  }

  /** Requests for one path prefix. */
  hits(prefix: string): number {
    return this.requests.filter((request) => request.path.startsWith(prefix)).length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? "/", this.origin);
    this.requests.push({ path: url.pathname, query: url.searchParams.get("q") });
    if (url.pathname === "/search") {
      if (this.searchStatus !== 200) {
        response.writeHead(this.searchStatus).end("error");
        return;
      }
      void Promise.resolve(this.results(url.searchParams.get("q") ?? "")).then((results) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ query: url.searchParams.get("q"), results }));
      });
      return;
    }
    const page = url.pathname.startsWith("/page/")
      ? this.pages.get(url.pathname.slice("/page/".length))
      : undefined;
    if (page === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    if (page.redirect !== undefined) {
      response.writeHead(page.status ?? 302, { location: page.redirect }).end();
      return;
    }
    response.writeHead(page.status ?? 200, {
      "content-type": page.contentType ?? "text/html; charset=utf-8",
    });
    if (page.delayMillis === undefined) {
      response.end(page.body ?? "");
      return;
    }
    response.write(" ");
    const timer = setTimeout(() => response.end(page.body ?? ""), page.delayMillis);
    response.on("close", () => clearTimeout(timer));
  }
}
