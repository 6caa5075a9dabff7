import { IpRanges, parseIp } from "../shared/ip-ranges";

/**
 * Whether a request from the server to `address` would stay inside: this machine (loopback, unspecified, any of
 * `own`), its networks (private, link-local with the cloud metadata address, carrier-grade NAT) or anything the
 * public internet does not route (multicast, reserved, documentation). IPv6 forms that carry an IPv4 address
 * (IPv4-mapped, NAT64, 6to4) are judged by that address. What is not an IP address at all counts as inside.
 */
export function isInternalAddress(address: string, own: readonly string[] = []): boolean {
  const target = destinationOf(address);
  if (!target) return true;
  if (own.some((mine) => sameAddress(destinationOf(mine), target))) return true;
  if (IPV4.contains(target)) return INTERNAL.contains(target);
  return !GLOBAL_V6.contains(target) || INTERNAL.contains(target);
}

const INTERNAL = IpRanges.of(
  "0.0.0.0/8", // "this network", with the unspecified address
  "10.0.0.0/8",
  "100.64.0.0/10", // carrier-grade NAT
  "127.0.0.0/8",
  "169.254.0.0/16", // link-local, with the cloud metadata address
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, with the broadcast address
  "2001::/23",
  "2001:db8::/32",
  "3fff::/20",
);

/** IPv4 addresses, as parseIp holds them (IPv4-mapped). */
const IPV4 = IpRanges.of("::ffff:0:0/96");
/** Only global unicast is reached over the internet; outside it are loopback, link-local, unique-local, multicast… */
const GLOBAL_V6 = IpRanges.of("2000::/3");

/** IPv6 ranges whose packets go to the IPv4 address they carry, and the byte that address starts at. */
const CARRIES_V4 = [
  { ranges: IpRanges.of("64:ff9b::/96"), at: 12 }, // NAT64
  { ranges: IpRanges.of("2002::/16"), at: 2 }, // 6to4
];

/** Where packets to `address` go: the address itself, or the IPv4 address an IPv6 form carries. */
function destinationOf(address: string): Uint8Array | undefined {
  const bytes = parseIp(address.replace(/^\[|\]$/g, ""));
  if (!bytes) return undefined;
  const carrier = CARRIES_V4.find((c) => c.ranges.contains(bytes));
  if (!carrier) return bytes;
  return Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...bytes.subarray(carrier.at, carrier.at + 4)]);
}

function sameAddress(a: Uint8Array | undefined, b: Uint8Array) {
  return !!a && a.every((byte, i) => byte === b[i]);
}
