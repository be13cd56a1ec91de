import { BlockList, isIP } from "node:net";

/** Host names that reach cloud metadata services whatever they resolve to. */
const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.azure.internal",
  "instance-data",
]);

const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, including 169.254.169.254 cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  BLOCKED.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local, including fd00:ec2::254 (AWS metadata over IPv6)
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  BLOCKED.addSubnet(network, prefix, "ipv6");

/** The IPv4 address inside an IPv4-mapped or NAT64 IPv6 address (`::ffff:10.0.0.1`, `64:ff9b::a00:1`), if any. */
const embeddedIpv4 = (address: string): string | undefined => {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted !== null) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex === null) return undefined;
  const high = Number.parseInt(hex[1] ?? "0", 16);
  const low = Number.parseInt(hex[2] ?? "0", 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
};

/** Why an address may not be fetched (loopback, private, link-local, metadata…), or undefined when it is public. */
export const blockedAddress = (address: string): string | undefined => {
  const family = isIP(address);
  if (family === 0) return "not an IP address";
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== undefined) return blockedAddress(inner);
    return BLOCKED.check(address, "ipv6") ? `private or local address ${address}` : undefined;
  }
  return BLOCKED.check(address, "ipv4") ? `private or local address ${address}` : undefined;
};

/** Why a host name may not be fetched by name alone (metadata service names, `localhost`), or undefined. */
export const blockedHostName = (host: string): string | undefined => {
  const name = host.toLowerCase().replace(/\.$/, "");
  if (METADATA_NAMES.has(name)) return `cloud metadata host ${name}`;
  if (name === "localhost" || name.endsWith(".localhost")) return `local host ${name}`;
  return undefined;
};
