import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SearchTestServer } from "../../../../test/support/search-server.js";
import { blockedAddress } from "./address-policy.js";
import { FetchRefused, GuardedFetcher } from "./guarded-fetch.js";
import { htmlToText, trimSummary } from "./html-text.js";

describe("GuardedFetcher", () => {
  let web: SearchTestServer;
  let other: SearchTestServer;
  let guard: GuardedFetcher;

  beforeAll(async () => {
    web = await SearchTestServer.start();
    other = await SearchTestServer.start();
    other.pages.set("secret", { body: "internal secret" });
    web.pages.set("ok", {
      body: "<html><head><title>Ok &amp; fine</title></head><body><p>Diamonds</p></body></html>",
    });
    web.pages.set("to-metadata", { redirect: "http://169.254.169.254/latest/meta-data/" });
    web.pages.set("to-other-port", { redirect: other.page("secret") });
    web.pages.set("to-ten", { redirect: "http://10.0.0.7/" });
    web.pages.set("hop1", { redirect: web.page("hop2") });
    web.pages.set("hop2", { redirect: web.page("hop3") });
    web.pages.set("hop3", { redirect: web.page("hop4") });
    web.pages.set("hop4", { redirect: web.page("ok") });
    web.pages.set("big", { body: "x".repeat(4_096) });
    web.pages.set("binary", { contentType: "application/octet-stream", body: "…" });
    guard = new GuardedFetcher({
      allow: [`127.0.0.1:${web.port}`],
      limits: { maxBytes: 2_048, timeoutMillis: 5_000, maxRedirects: 3 },
    });
  });
  afterAll(async () => {
    await web.close();
    await other.close();
  });

  const refusal = async (url: string, fetcher = guard): Promise<string> => {
    try {
      await fetcher.fetch(url);
    } catch (error) {
      if (error instanceof FetchRefused) return error.reason;
      throw error;
    }
    throw new Error(`${url} was fetched`);
  };

  it("fetches an allow-listed page", async () => {
    const page = await guard.fetch(web.page("ok"));
    expect(page.status).toBe(200);
    expect(htmlToText(page.body)).toEqual({ title: "Ok & fine", text: "Diamonds" });
  });

  it("refuses loopback on another port, 10.x and cloud metadata without connecting", async () => {
    expect(await refusal(other.page("secret"))).toMatch(/private or local address 127\.0\.0\.1/);
    expect(await refusal("http://10.1.2.3/")).toMatch(/private or local/);
    expect(await refusal("http://169.254.169.254/latest/meta-data/")).toMatch(/private or local/);
    expect(await refusal("http://[::ffff:169.254.169.254]/")).toMatch(/private or local/);
    expect(await refusal("http://metadata.google.internal/")).toMatch(/metadata/);
    expect(await refusal("http://localhost:1/")).toMatch(/local host/);
    expect(await refusal("file:///etc/passwd")).toMatch(/scheme/);
    expect(await refusal(`http://user:pw@127.0.0.1:${web.port}/page/ok`)).toMatch(/credentials/);
    expect(other.hits("/page/secret")).toBe(0);
  });

  it("refuses names that resolve to private addresses", async () => {
    const fetcher = new GuardedFetcher({ resolve: async () => [{ address: "10.0.0.5", family: 4 }] });
    expect(await refusal("http://intranet.example/", fetcher)).toMatch(/10\.0\.0\.5/);
    const mixed = new GuardedFetcher({
      resolve: async () => [
        { address: "93.184.216.34", family: 4 },
        { address: "192.168.1.1", family: 4 },
      ],
    });
    expect(await refusal("http://rebind.example/", mixed)).toMatch(/192\.168\.1\.1/);
  });

  it("connects to the address it checked (pinned), not to a second DNS answer", async () => {
    let lookups = 0;
    const fetcher = new GuardedFetcher({
      allow: [`pinned.example:${web.port}`],
      resolve: async () => {
        lookups++;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    const page = await fetcher.fetch(`http://pinned.example:${web.port}/page/ok`);
    expect(page.body).toContain("Diamonds");
    expect(lookups).toBe(1);
  });

  it("re-checks every redirect and limits their number", async () => {
    expect(await refusal(web.page("to-metadata"))).toMatch(/169\.254\.169\.254/);
    expect(await refusal(web.page("to-ten"))).toMatch(/10\.0\.0\.7/);
    expect(await refusal(web.page("to-other-port"))).toMatch(/private or local/);
    expect(other.hits("/page/secret")).toBe(0);
    expect(await refusal(web.page("hop1"))).toMatch(/more than 3 redirects/);
    expect((await guard.fetch(web.page("hop2"))).url).toBe(web.page("ok"));
  });

  it("gives up on a page slower than the time limit", async () => {
    web.pages.set("slow", { body: "late", delayMillis: 5_000 });
    const impatient = new GuardedFetcher({
      allow: [`127.0.0.1:${web.port}`],
      limits: { maxBytes: 2_048, timeoutMillis: 200, maxRedirects: 3 },
    });
    expect(await refusal(web.page("slow"), impatient)).toBe("timed out");
  });

  it("limits size and refuses non-text content", async () => {
    expect(await refusal(web.page("big"))).toMatch(/larger than 2048 bytes/);
    expect(await refusal(web.page("binary"))).toMatch(/not text/);
    expect(await refusal(web.page("missing"))).toMatch(/HTTP status 404/);
  });
});

describe("address policy", () => {
  it("blocks private, local, link-local and metadata ranges in both families", () => {
    for (const address of [
      "127.0.0.1",
      "10.0.0.1",
      "172.20.1.1",
      "192.168.0.1",
      "169.254.169.254",
      "100.100.100.200",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00:ec2::254",
      "::ffff:10.0.0.1",
      "::ffff:a00:1",
    ])
      expect(blockedAddress(address), address).toBeDefined();
    for (const address of ["8.8.8.8", "93.184.216.34", "2001:4860:4860::8888", "172.32.0.1"])
      expect(blockedAddress(address), address).toBeUndefined();
  });
});

describe("html text", () => {
  it("drops scripts, styles and navigation and decodes entities", () => {
    const html =
      "<html><head><style>p{}</style><title>T</title></head><body><nav>Menu</nav><script>alert(1)</script><p>A &lt;b&gt; &#x4e2d;&#25991; &nbsp;x</p><footer>f</footer></body></html>";
    expect(htmlToText(html)).toEqual({ title: "T", text: "A <b> 中文 x" });
    expect(trimSummary("one two three four", 9)).toBe("one two…");
  });
});
