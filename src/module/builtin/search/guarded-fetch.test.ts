import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SearchTestServer } from "../../../../test/support/search-server.js";
import { blockedAddress } from "./address-policy.js";
import { FetchRefused, GuardedFetcher, type Resolver } from "./guarded-fetch.js";
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

  it("opens its own connection to the checked address instead of reusing another fetcher's", async () => {
    const trusted = new GuardedFetcher({
      allow: [`pooled.example:${web.port}`],
      resolve: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    expect((await trusted.fetch(`http://pooled.example:${web.port}/page/ok`)).body).toContain("Diamonds");
    const before = web.hits("/page/ok");
    const untrusted = new GuardedFetcher({
      resolve: async () => [{ address: "192.0.2.1", family: 4 }],
      limits: { maxBytes: 2_048, timeoutMillis: 300, maxRedirects: 0 },
    });
    await refusal(`http://pooled.example:${web.port}/page/ok`, untrusted);
    expect(web.hits("/page/ok")).toBe(before);
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

/** How an IPv6 address carries an IPv4 one, as its eight 16-bit groups; `dotted` when the IPv4 is the last 32 bits. */
interface Embedding {
  readonly name: string;
  readonly groups: (high: number, low: number) => number[];
  readonly dotted: boolean;
}

const EMBEDDINGS: readonly Embedding[] = [
  { name: "IPv4-compatible ::/96", groups: (high, low) => [0, 0, 0, 0, 0, 0, high, low], dotted: true },
  {
    name: "IPv4-mapped ::ffff:0:0/96",
    groups: (high, low) => [0, 0, 0, 0, 0, 0xffff, high, low],
    dotted: true,
  },
  {
    name: "IPv4-translated ::ffff:0:0:0/96",
    groups: (high, low) => [0, 0, 0, 0, 0xffff, 0, high, low],
    dotted: true,
  },
  { name: "NAT64 64:ff9b::/96", groups: (high, low) => [0x64, 0xff9b, 0, 0, 0, 0, high, low], dotted: true },
  {
    name: "NAT64 local-use 64:ff9b:1::/48",
    groups: (high, low) => [0x64, 0xff9b, 1, 0, 0, 0, high, low],
    dotted: true,
  },
  { name: "6to4 2002::/16", groups: (high, low) => [0x2002, high, low, 0, 0, 0, 0, 1], dotted: false },
  // The other Teredo address is 8.8.8.8, so only the one under test can be refused.
  {
    name: "Teredo server 2001::/32",
    groups: (high, low) => [0x2001, 0, high, low, 0, 0, 0xf7f7, 0xf7f7],
    dotted: false,
  },
  {
    name: "Teredo client 2001::/32",
    groups: (high, low) => [0x2001, 0, 0x808, 0x808, 0, 0, high ^ 0xffff, low ^ 0xffff],
    dotted: false,
  },
];

interface Spelling {
  readonly compressed: boolean;
  readonly padded: boolean;
  readonly upper: boolean;
  readonly dotted: boolean;
}

const PLAIN: Spelling = { compressed: true, padded: false, upper: false, dotted: false };

/** IPv6 text for `ipv4` embedded by `embedding`, spelled as asked (the longest zero run compressed, if any). */
const embed = (ipv4: string, embedding: Embedding, spelling: Spelling = PLAIN): string => {
  const [a = 0, b = 0, c = 0, d = 0] = ipv4.split(".").map(Number);
  const groups = embedding.groups((a << 8) | b, (c << 8) | d);
  const pieces = groups.map((group) => {
    const hex = group.toString(16);
    return spelling.padded ? hex.padStart(4, "0") : hex;
  });
  const dotted = spelling.dotted && embedding.dotted;
  if (dotted) pieces.splice(6, 2, ipv4);
  let start = -1;
  let length = 0;
  for (let index = 0; spelling.compressed && index < 8; index++) {
    let run = 0;
    while (index + run < (dotted ? 6 : 8) && groups[index + run] === 0) run++;
    if (run > length && run > 1) [start, length] = [index, run];
  }
  const text =
    start === -1
      ? pieces.join(":")
      : `${pieces.slice(0, start).join(":")}::${pieces.slice(start + length).join(":")}`;
  return spelling.upper ? text.toUpperCase() : text;
};

const REFUSED_IPV4 = [
  "127.0.0.1",
  "10.0.0.1",
  "10.255.255.254",
  "172.16.0.1",
  "172.31.255.254",
  "192.168.1.1",
  "169.254.169.254",
];
const PUBLIC_IPV4 = ["8.8.8.8", "93.184.216.34", "172.32.0.1"];

/** The reason a check refused, or undefined when it passed. */
const checkRefusal = async (fetcher: GuardedFetcher, url: string): Promise<string | undefined> => {
  try {
    await fetcher.check(url);
    return undefined;
  } catch (error) {
    if (error instanceof FetchRefused) return error.reason;
    throw error;
  }
};

const answering =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

describe("IPv6 addresses that embed IPv4", () => {
  const guard = new GuardedFetcher();

  it("refuses the loopback and metadata addresses of the reported URLs", async () => {
    for (const [url, ipv4] of [
      ["http://[::127.0.0.1]/", "127.0.0.1"],
      ["http://[::7f00:1]/", "127.0.0.1"],
      ["http://[::ffff:0:127.0.0.1]/", "127.0.0.1"],
      ["http://[64:ff9b:1::127.0.0.1]/", "127.0.0.1"],
      ["http://[2002:7f00:1::]/", "127.0.0.1"],
      ["http://[2002:a9fe:a9fe::]/", "169.254.169.254"],
    ] as const)
      expect(await checkRefusal(guard, url), url).toMatch(`private or local address ${ipv4}`);
  });

  it.each(EMBEDDINGS)("$name: refuses private IPv4 inside, allows public IPv4 inside", async (embedding) => {
    for (const ipv4 of REFUSED_IPV4) {
      for (const dotted of [false, true]) {
        const url = `http://[${embed(ipv4, embedding, { ...PLAIN, dotted })}]/`;
        expect(await checkRefusal(guard, url), url).toMatch(`private or local address ${ipv4}`);
      }
      const answer = embed(ipv4, embedding, { compressed: false, padded: true, upper: true, dotted: false });
      const resolved = new GuardedFetcher({ resolve: answering(answer) });
      expect(await checkRefusal(resolved, "http://example.test/"), answer).toMatch(
        `private or local address ${ipv4}`,
      );
    }
    for (const ipv4 of PUBLIC_IPV4) {
      const address = embed(ipv4, embedding);
      const target = await guard.check(`http://[${address}]/`);
      expect(target).toMatchObject({ address, family: 6 });
    }
  });

  it("allows the public examples", async () => {
    for (const url of [
      "http://[::ffff:8.8.8.8]/",
      "http://[2002:0808:0808::]/",
      "http://[64:ff9b::8.8.8.8]/",
    ])
      expect(await checkRefusal(guard, url), url).toBeUndefined();
    expect(await checkRefusal(guard, "http://[2002:a9fe:a9fe::]/")).toBeDefined();
  });

  it("refuses resolver answers in any spelling and connects to the canonical text of what it checked", async () => {
    for (const answer of [
      "::FFFF:0:7F00:0001",
      "0000:0000:0000:0000:ffff:0000:127.0.0.1",
      "64:FF9B::0A00:0001",
      "2002:C0A8:0101::%eth0",
      "2001:0:0808:0808::5601:5645",
    ]) {
      const fetcher = new GuardedFetcher({ resolve: answering("93.184.216.34", answer) });
      expect(await checkRefusal(fetcher, "http://example.test/"), answer).toMatch(/private or local address/);
    }
    const unparsable = new GuardedFetcher({ resolve: answering("0177.0.0.1") });
    expect(await checkRefusal(unparsable, "http://example.test/")).toMatch(/not an IP address/);
    const spelled = new GuardedFetcher({ resolve: answering("0064:FF9B:0000::8.8.8.8") });
    expect(await spelled.check("http://example.test/")).toMatchObject({
      address: "64:ff9b::808:808",
      family: 6,
    });
  });

  it("keeps the allow list: an allow-listed host:port may embed a private address", async () => {
    const allowed = new GuardedFetcher({ allow: ["::ffff:0:7f00:1:8080"] });
    expect(await checkRefusal(allowed, "http://[::ffff:0:127.0.0.1]:8080/")).toBeUndefined();
    expect(await checkRefusal(allowed, "http://[::ffff:0:127.0.0.1]:8081/")).toMatch(/127\.0\.0\.1/);
  });

  const PRIVATE_NETWORKS: readonly (readonly [number, number])[] = [
    [0x7f000000, 8],
    [0x0a000000, 8],
    [0xac100000, 12],
    [0xc0a80000, 16],
    [0xa9fe0000, 16],
  ];
  const privateIpv4 = fc
    .tuple(fc.constantFrom(...PRIVATE_NETWORKS), fc.integer({ min: 0, max: 0xffffffff }))
    .map(([[network, prefix], host]) => {
      const value = (network | (host & (0xffffffff >>> prefix))) >>> 0;
      return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
    });
  const spelling = fc.record({
    compressed: fc.boolean(),
    padded: fc.boolean(),
    upper: fc.boolean(),
    dotted: fc.boolean(),
  });

  it("refuses any private IPv4 embedded by any convention in any spelling, as URL host and as DNS answer", async () => {
    await fc.assert(
      fc.asyncProperty(
        privateIpv4,
        fc.constantFrom(...EMBEDDINGS),
        spelling,
        async (ipv4, embedding, how) => {
          const address = embed(ipv4, embedding, how);
          const reason = new RegExp(`private or local address ${ipv4.replaceAll(".", "\\.")}\\b`);
          expect(await checkRefusal(guard, `http://[${address}]/`)).toMatch(reason);
          const resolved = new GuardedFetcher({ resolve: answering(address) });
          expect(await checkRefusal(resolved, "http://example.test/")).toMatch(reason);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses an embedded IPv4 exactly when the IPv4 address itself is refused", async () => {
    await fc.assert(
      fc.asyncProperty(fc.ipV4(), fc.constantFrom(...EMBEDDINGS), spelling, async (ipv4, embedding, how) => {
        const refused = await checkRefusal(guard, `http://[${embed(ipv4, embedding, how)}]/`);
        expect(refused !== undefined, ipv4).toBe(blockedAddress(ipv4) !== undefined);
      }),
      { numRuns: 300 },
    );
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
