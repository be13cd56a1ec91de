import { blockedAddress } from "./address-policy.js";
import { embeddedIpv4Addresses, formatIpAddress, type IpAddress, parseIpAddress } from "./ip-address.js";

/** The outcome of screening one address: the parsed address to connect to, or why it may not be fetched. */
export type ScreenResult =
  | { readonly success: true; readonly value: IpAddress }
  | { readonly success: false; readonly error: string };

/**
 * Screens one address before the guard connects to it: text that does not parse as an IP address is refused,
 * then the address policy applies to the address itself and to every IPv4 address it embeds (IPv4-mapped,
 * NAT64, 6to4, Teredo…), so `::7f00:1` or `2002:a9fe:a9fe::` are refused like 127.0.0.1 and 169.254.169.254.
 */
export const screenAddress = (text: string): ScreenResult => {
  const parsed = parseIpAddress(text);
  if (!parsed.success) return parsed;
  const address = parsed.value;
  const canonical = formatIpAddress({ family: address.family, bytes: address.bytes });
  const own = blockedAddress(canonical);
  if (own !== undefined) return { success: false, error: own };
  for (const inner of embeddedIpv4Addresses(address)) {
    const blocked = blockedAddress(formatIpAddress(inner.address));
    if (blocked !== undefined)
      return { success: false, error: `${blocked} inside ${canonical} (${inner.embedding})` };
  }
  return parsed;
};
