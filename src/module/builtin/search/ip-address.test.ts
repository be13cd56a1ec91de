import { isIP } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { embeddedIpv4Addresses, formatIpAddress, type IpAddress, parseIpAddress } from "./ip-address.js";

const parsed = (text: string): IpAddress => {
  const result = parseIpAddress(text);
  if (!result.success) throw new Error(result.error);
  return result.value;
};

const embedded = (text: string): string[] =>
  embeddedIpv4Addresses(parsed(text)).map((inner) => `${inner.embedding} ${formatIpAddress(inner.address)}`);

/** Valid IPv6 text in any spelling: any zero run compressed or none, padded or not, either case, dotted tail. */
const spelledIpv6 = fc
  .record({
    groups: fc.array(fc.constantFrom(0, 0, 1, 0xdb8, 0xffff), { minLength: 8, maxLength: 8 }),
    compressAt: fc.nat(7),
    padded: fc.boolean(),
    upper: fc.boolean(),
    dotted: fc.boolean(),
  })
  .map(({ groups, compressAt, padded, upper, dotted }) => {
    const pieces = groups.map((group) => (padded ? group.toString(16).padStart(4, "0") : group.toString(16)));
    if (dotted) {
      const [high = 0, low = 0] = groups.slice(6);
      pieces.splice(6, 2, [high >> 8, high & 255, low >> 8, low & 255].join("."));
    }
    let run = 0;
    while (compressAt + run < (dotted ? 6 : 8) && groups[compressAt + run] === 0) run++;
    const text =
      run === 0
        ? pieces.join(":")
        : `${pieces.slice(0, compressAt).join(":")}::${pieces.slice(compressAt + run).join(":")}`;
    return upper ? text.toUpperCase() : text;
  });

/** Valid IPv6 text with one character deleted or one inserted: mostly invalid, sometimes still valid. */
const mutatedIpv6 = fc
  .tuple(spelledIpv6, fc.nat(40), fc.constantFrom("", ":", "::", ".", "0", "f", "g", " "))
  .map(([text, at, insert]) => {
    const index = at % (text.length + 1);
    return text.slice(0, index) + insert + text.slice(insert === "" ? index + 1 : index);
  });

describe("parseIpAddress", () => {
  it("reads compressed, expanded, upper-case, zero-padded, dotted-tail and zoned IPv6 as the same bytes", () => {
    const canonical = parsed("::ffff:7f00:1").bytes;
    for (const text of [
      "::ffff:127.0.0.1",
      "::FFFF:7F00:0001",
      "0000:0000:0000:0000:0000:ffff:7f00:0001",
      "0:0:0:0:0:ffff:127.0.0.1",
      "0::ffff:7f00:1",
      "::ffff:7f00:1%eth0",
    ])
      expect(parsed(text).bytes, text).toEqual(canonical);
    expect(parsed("fe80::1%eth0").zone).toBe("eth0");
    expect(parsed("1:2:3:4:5:6:7::").bytes.slice(14)).toEqual([0, 0]);
    expect(parsed("::").bytes).toEqual(new Array(16).fill(0));
  });

  it("refuses text that is not exactly one address", () => {
    for (const text of [
      "",
      "::1::",
      ":::",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4:5:6:7",
      "::1:2:3:4:5:6:7:8",
      "12345::",
      "::g",
      "1.2.3.4::",
      "::1.2.3.4:5",
      "::1.2.3.256",
      "::01.2.3.4",
      "[::1]",
      "fe80::1%",
      "fe80::1%eth 0",
      " ::1",
      "127.1",
      "0x7f.0.0.1",
      "0177.0.0.1",
      "127.0.0.1.",
      "1.2.3.4.5",
    ])
      expect(parseIpAddress(text).success, JSON.stringify(text)).toBe(false);
  });

  it("accepts an IPv6 text exactly when Node's isIP does (zone ids aside)", () => {
    fc.assert(
      fc.property(fc.oneof(spelledIpv6, mutatedIpv6), (text) => {
        fc.pre(text.includes(":"));
        expect(parseIpAddress(text).success, text).toBe(isIP(text) === 6);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("formatIpAddress", () => {
  it("writes RFC 5952 text: the first longest zero run compressed, a lone zero group kept", () => {
    expect(formatIpAddress(parsed("2001:0db8:0000:0000:0001:0000:0000:0001"))).toBe("2001:db8::1:0:0:1");
    expect(formatIpAddress(parsed("2001:db8:0:1:1:1:1:1"))).toBe("2001:db8:0:1:1:1:1:1");
    expect(formatIpAddress(parsed("0:0:0:0:0:0:0:0"))).toBe("::");
    expect(formatIpAddress(parsed("FE80::1%eth0"))).toBe("fe80::1%eth0");
    expect(formatIpAddress(parsed("10.0.0.1"))).toBe("10.0.0.1");
  });

  it("round-trips any 16 bytes and agrees with the URL parser's host serialisation", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(0, 0, 0, 1, 0x7f, 0xff), { minLength: 16, maxLength: 16 }),
        (bytes) => {
          const text = formatIpAddress({ family: 6, bytes });
          expect(parsed(text).bytes).toEqual(bytes);
          expect(new URL(`http://[${text}]/`).hostname).toBe(`[${text}]`);
        },
      ),
    );
  });
});

describe("embeddedIpv4Addresses", () => {
  it("finds the IPv4 address of every embedding convention", () => {
    expect(embedded("::127.0.0.1")).toEqual(["IPv4-compatible 127.0.0.1"]);
    expect(embedded("::7f00:1")).toEqual(["IPv4-compatible 127.0.0.1"]);
    expect(embedded("::ffff:a00:1")).toEqual(["IPv4-mapped 10.0.0.1"]);
    expect(embedded("::ffff:0:192.168.0.1")).toEqual(["IPv4-translated 192.168.0.1"]);
    expect(embedded("64:ff9b::169.254.169.254")).toEqual(["NAT64 169.254.169.254"]);
    expect(embedded("64:ff9b:1::ac10:1")).toEqual(["NAT64 local-use 172.16.0.1"]);
    expect(embedded("2002:a9fe:a9fe::1")).toEqual(["6to4 169.254.169.254"]);
    expect(embedded("2001:0:4136:e378:8000:63bf:3fff:fdd2")).toEqual([
      "Teredo server 65.54.227.120",
      "Teredo client 192.0.2.45",
    ]);
  });

  it("finds nothing in native IPv6, in neighbouring prefixes or in IPv4", () => {
    for (const text of [
      "2001:4860:4860::8888",
      "64:ff9b:2::7f00:1",
      "2001:1::7f00:1",
      "::1:ffff:7f00:1",
      "8.8.8.8",
    ])
      expect(embedded(text), text).toEqual([]);
  });
});
