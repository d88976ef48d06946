/**
 * The IPv4 address an IPv6 address carries, for the webhook URL guard (./url-guard.ts): a
 * packet sent to such an address ends at (or is translated to) the IPv4 host, so the address
 * is only as public as that host. Read with ipaddr.js's parser and its ranges (RFC 6890 and the
 * IANA special-purpose registry); the forms:
 *
 * | form | prefix | where the IPv4 address is |
 * |---|---|---|
 * | IPv4-compatible (RFC 4291 2.5.5.1, deprecated) | `::/96` except `::` and `::1` | last 32 bits |
 * | IPv4-mapped (RFC 4291 2.5.5.2) | `::ffff:0:0/96` | last 32 bits |
 * | IPv4-translated (RFC 6145) | `::ffff:0:0:0/96` | last 32 bits |
 * | NAT64 well-known prefix (RFC 6052) | `64:ff9b::/96` | last 32 bits |
 * | 6to4 (RFC 3056) | `2002::/16` | bits 16-47 |
 * | Teredo (RFC 4380) | `2001::/32` | last 32 bits, each bit inverted (the client) |
 *
 * The NAT64 local-use prefix `64:ff9b:1::/48` (RFC 8215) is not here: its operator chooses
 * where the IPv4 address sits (/48 to /96), and it is not globally reachable, so the guard
 * refuses the whole prefix.
 */
import ipaddr from "ipaddr.js";

/** The NAT64 local-use prefix (RFC 8215), refused as a whole by the guard. */
export const LOCAL_USE_NAT64 = ipaddr.parseCIDR("64:ff9b:1::/48");

const prefix = (cidr: string) => ipaddr.parseCIDR(cidr) as [ipaddr.IPv6, number];

/** Prefixes whose last 32 bits are the IPv4 address. */
const LAST_32_BITS = ["::ffff:0:0/96", "::ffff:0:0:0/96", "64:ff9b::/96"].map(prefix);
const SIX_TO_FOUR = prefix("2002::/16");
const TEREDO = prefix("2001::/32");

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/**
 * The IPv4 address `address` embeds (see the module table), or null when it embeds none
 * (including `::` and `::1`, which are IPv6's own unspecified and loopback addresses).
 */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts;
  if (LAST_32_BITS.some((range) => address.match(range))) return v4(p[6]!, p[7]!);
  const compatible = p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1);
  if (compatible) return v4(p[6]!, p[7]!);
  if (address.match(SIX_TO_FOUR)) return v4(p[1]!, p[2]!);
  if (address.match(TEREDO)) return v4(~p[6]! & 0xffff, ~p[7]! & 0xffff);
  return null;
}
