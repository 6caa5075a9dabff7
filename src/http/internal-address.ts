import { isIP } from "node:net";

/**
 * Whether a request from the server to `address` would stay inside: this machine (loopback, unspecified, any of
 * `own`), its networks (private, link-local with the cloud metadata address, carrier-grade NAT) or anything the
 * public internet does not route (multicast, reserved, documentation). IPv6 forms that carry an IPv4 address
 * (IPv4-mapped, NAT64, 6to4) are judged by that address. What is not an IP address at all counts as inside.
 */
export function isInternalAddress(address: string, own: readonly string[] = []): boolean {
  const target = destinationOf(address);
  if (!target) return true;
  if (own.some((mine) => sameDestination(destinationOf(mine), target))) return true;
  if (target.family === 4) return INTERNAL_V4.some((range) => within(target.value, range, 32));
  return !within(target.value, GLOBAL_V6, 128) || INTERNAL_V6.some((range) => within(target.value, range, 128));
}

interface Destination {
  family: 4 | 6;
  value: bigint;
}

interface Range {
  base: bigint;
  bits: number;
}

const INTERNAL_V4 = [
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
].map(range);

/** Only global unicast is reached over the internet; outside it are loopback, link-local, unique-local, multicast… */
const GLOBAL_V6 = range("2000::/3");
const INTERNAL_V6 = ["2001::/23", "2001:db8::/32", "3fff::/20"].map(range);

/** IPv6 ranges whose packets go to the IPv4 address they carry, and where in the address it sits. */
const CARRIES_V4: { range: Range; shift: bigint }[] = [
  { range: range("::ffff:0:0/96"), shift: 0n }, // IPv4-mapped
  { range: range("64:ff9b::/96"), shift: 0n }, // NAT64
  { range: range("2002::/16"), shift: 80n }, // 6to4
];

function destinationOf(address: string): Destination | undefined {
  const text = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(text);
  if (family === 4) return { family: 4, value: ipv4Value(text) };
  if (family !== 6) return undefined;
  const value = ipv6Value(text);
  const carrier = CARRIES_V4.find((c) => within(value, c.range, 128));
  return carrier ? { family: 4, value: (value >> carrier.shift) & 0xffff_ffffn } : { family: 6, value };
}

function sameDestination(a: Destination | undefined, b: Destination) {
  return a?.family === b.family && a.value === b.value;
}

function within(value: bigint, r: Range, width: number) {
  const shift = BigInt(width - r.bits);
  return value >> shift === r.base >> shift;
}

function range(cidr: string): Range {
  const [address, bits] = cidr.split("/") as [string, string];
  return { base: address.includes(":") ? ipv6Value(address) : ipv4Value(address), bits: Number(bits) };
}

/** A dotted-quad address (as `isIP` accepts it) as a number. */
function ipv4Value(text: string): bigint {
  return text.split(".").reduce((value, part) => (value << 8n) | BigInt(part), 0n);
}

/** A valid IPv6 address (as `isIP` accepts it, an IPv4 tail allowed) as a number. */
function ipv6Value(text: string): bigint {
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  const v4 = tail ? ipv4Value(tail) : undefined;
  const hex = tail
    ? `${text.slice(0, -tail.length)}${(v4! >> 16n).toString(16)}:${(v4! & 0xffffn).toString(16)}`
    : text;
  const [head = "", rest] = hex.split("::");
  const left = head ? head.split(":") : [];
  const right = rest ? rest.split(":") : [];
  const groups = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.reduce((value, group) => (value << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}
