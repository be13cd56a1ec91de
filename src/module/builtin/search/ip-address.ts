/** An IP address as its bytes in network order: 4 for IPv4, 16 for IPv6, which may carry a zone id (`%eth0`). */
export interface IpAddress {
  readonly family: 4 | 6;
  readonly bytes: readonly number[];
  readonly zone?: string;
}

/** The outcome of parsing address text; `error` says why the text is not an address. */
export type IpParseResult =
  | { readonly success: true; readonly value: IpAddress }
  | { readonly success: false; readonly error: string };

/** The IPv6 convention that carried an IPv4 address. */
export type Ipv4Embedding =
  | "IPv4-compatible"
  | "IPv4-mapped"
  | "IPv4-translated"
  | "NAT64"
  | "NAT64 local-use"
  | "6to4"
  | "Teredo server"
  | "Teredo client";

/** An IPv4 address found inside an IPv6 address, and how it was embedded. */
export interface EmbeddedIpv4 {
  readonly embedding: Ipv4Embedding;
  readonly address: IpAddress;
}

const failure = (text: string, why: string): IpParseResult => ({
  success: false,
  error: `not an IP address (${why}): ${text.slice(0, 60)}`,
});

/** One decimal part of a dotted quad; leading zeros are refused because some parsers read them as octal. */
const DECIMAL_PART = /^(0|[1-9][0-9]{0,2})$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/;
const ZONE = /^[0-9a-z._~-]+$/i;

/** The four bytes of a strict dotted quad (`a.b.c.d`, each 0–255 in plain decimal), or undefined. */
const dottedQuad = (text: string): number[] | undefined => {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!DECIMAL_PART.test(part)) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes.push(value);
  }
  return bytes;
};

/** Parses a strict IPv4 dotted quad; shorthand, hexadecimal, octal and leading zeros are refused. */
export const parseIpv4 = (text: string): IpParseResult => {
  const bytes = dottedQuad(text);
  return bytes === undefined
    ? failure(text, "not a dotted quad")
    : { success: true, value: { family: 4, bytes } };
};

/** The 16-bit groups of one side of `::`; a trailing dotted quad is allowed only where `last` says so. */
const groupsOf = (side: string, last: boolean): number[] | undefined => {
  if (side === "") return [];
  const pieces = side.split(":");
  const groups: number[] = [];
  for (const [index, piece] of pieces.entries()) {
    if (HEX_GROUP.test(piece)) {
      groups.push(Number.parseInt(piece, 16));
      continue;
    }
    const quad = last && index === pieces.length - 1 ? dottedQuad(piece) : undefined;
    if (quad === undefined) return undefined;
    groups.push(((quad[0] ?? 0) << 8) | (quad[1] ?? 0), ((quad[2] ?? 0) << 8) | (quad[3] ?? 0));
  }
  return groups;
};

/**
 * Parses IPv6 text as RFC 4291 writes it: case-insensitive hex groups of one to four digits, at most one `::`
 * standing for one or more zero groups, an optional dotted quad as the last 32 bits, and an optional `%zone`.
 * Brackets are not part of an address and are refused.
 */
export const parseIpv6 = (text: string): IpParseResult => {
  const percent = text.indexOf("%");
  const body = (percent === -1 ? text : text.slice(0, percent)).toLowerCase();
  const zone = percent === -1 ? undefined : text.slice(percent + 1);
  if (zone !== undefined && !ZONE.test(zone)) return failure(text, "bad zone id");
  const sides = body.split("::");
  if (sides.length > 2) return failure(text, "more than one ::");
  const [head = "", tail] = sides;
  const headGroups = groupsOf(head, tail === undefined);
  const tailGroups = tail === undefined ? [] : groupsOf(tail, true);
  if (headGroups === undefined || tailGroups === undefined) return failure(text, "bad group");
  const count = headGroups.length + tailGroups.length;
  if (tail === undefined ? count !== 8 : count > 7) return failure(text, "wrong number of groups");
  const groups = [...headGroups, ...new Array<number>(8 - count).fill(0), ...tailGroups];
  const bytes = groups.flatMap((group) => [group >> 8, group & 255]);
  return { success: true, value: zone === undefined ? { family: 6, bytes } : { family: 6, bytes, zone } };
};

/** Parses IPv4 or IPv6 text (IPv6 when it contains a colon). */
export const parseIpAddress = (text: string): IpParseResult =>
  text.includes(":") ? parseIpv6(text) : parseIpv4(text);

/**
 * Canonical text of an address: a dotted quad, or RFC 5952 IPv6 (lower-case hex, no leading zeros, the longest
 * run of two or more zero groups as `::`) followed by `%zone` when there is one.
 */
export const formatIpAddress = (address: IpAddress): string => {
  if (address.family === 4) return address.bytes.join(".");
  const groups: number[] = [];
  for (let index = 0; index < 16; index += 2)
    groups.push(((address.bytes[index] ?? 0) << 8) | (address.bytes[index + 1] ?? 0));
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length++;
    if (length > bestLength) {
      bestStart = start;
      bestLength = length;
    }
  }
  const hex = (from: number, to: number): string =>
    groups
      .slice(from, to)
      .map((group) => group.toString(16))
      .join(":");
  const text = bestStart === -1 ? hex(0, 8) : `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
  return address.zone === undefined ? text : `${text}%${address.zone}`;
};

const ipv4 = (bytes: readonly number[]): IpAddress => ({ family: 4, bytes });
const startsWith = (bytes: readonly number[], prefix: readonly number[]): boolean =>
  prefix.every((value, index) => bytes[index] === value);

const ZEROS_96 = new Array<number>(12).fill(0);
const MAPPED_PREFIX = [...new Array<number>(10).fill(0), 0xff, 0xff];
const TRANSLATED_PREFIX = [...new Array<number>(8).fill(0), 0xff, 0xff, 0, 0];
const NAT64_PREFIX = [0x00, 0x64, 0xff, 0x9b, ...new Array<number>(8).fill(0)];
const NAT64_LOCAL_PREFIX = [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01];
const SIX_TO_FOUR_PREFIX = [0x20, 0x02];
const TEREDO_PREFIX = [0x20, 0x01, 0x00, 0x00];

/**
 * Every IPv4 address an IPv6 address carries by a known convention: IPv4-compatible `::/96`, IPv4-mapped
 * `::ffff:0:0/96`, IPv4-translated `::ffff:0:0:0/96` (RFC 2765), NAT64 `64:ff9b::/96` and local-use
 * `64:ff9b:1::/48` (RFC 8215, last 32 bits), 6to4 `2002::/16` (bits 16–47) and Teredo `2001::/32` (server in
 * bits 32–63, client as the inverted last 32 bits). Empty for IPv4 and for IPv6 that embeds nothing.
 */
export const embeddedIpv4Addresses = (address: IpAddress): readonly EmbeddedIpv4[] => {
  if (address.family !== 6) return [];
  const bytes = address.bytes;
  const last = bytes.slice(12, 16);
  if (startsWith(bytes, ZEROS_96)) return [{ embedding: "IPv4-compatible", address: ipv4(last) }];
  if (startsWith(bytes, MAPPED_PREFIX)) return [{ embedding: "IPv4-mapped", address: ipv4(last) }];
  if (startsWith(bytes, TRANSLATED_PREFIX)) return [{ embedding: "IPv4-translated", address: ipv4(last) }];
  if (startsWith(bytes, NAT64_PREFIX)) return [{ embedding: "NAT64", address: ipv4(last) }];
  if (startsWith(bytes, NAT64_LOCAL_PREFIX)) return [{ embedding: "NAT64 local-use", address: ipv4(last) }];
  if (startsWith(bytes, SIX_TO_FOUR_PREFIX)) return [{ embedding: "6to4", address: ipv4(bytes.slice(2, 6)) }];
  if (startsWith(bytes, TEREDO_PREFIX))
    return [
      { embedding: "Teredo server", address: ipv4(bytes.slice(4, 8)) },
      { embedding: "Teredo client", address: ipv4(last.map((byte) => byte ^ 0xff)) },
    ];
  return [];
};
