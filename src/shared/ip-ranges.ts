/**
 * IPv4 and IPv6 addresses and CIDR ranges. Every address is held as 16 bytes, an IPv4 one in its IPv4-mapped
 * IPv6 form (::ffff:a.b.c.d), so `10.0.0.0/8` also holds `::ffff:10.1.2.3`, as a dual-stack socket reports an
 * IPv4 peer.
 */

export interface IpRange {
  bytes: Uint8Array;
  /** Leading bits that must match (0-128; an IPv4 prefix /n is 96 + n). */
  bits: number;
}

/** A set of addresses and ranges, e.g. `IpRanges.of("127.0.0.1", "10.0.0.0/8", "::1")`. */
export class IpRanges {
  static readonly none = new IpRanges([]);

  constructor(private readonly ranges: readonly IpRange[]) {}

  /** The set of these addresses or CIDR ranges; throws on an entry that is neither. */
  static of(...entries: string[]): IpRanges {
    return new IpRanges(
      entries.map((entry) => {
        const range = parseIpRange(entry);
        if (!range) throw new Error(`"${entry}" is not an IP address or CIDR range`);
        return range;
      }),
    );
  }

  get isEmpty(): boolean {
    return this.ranges.length === 0;
  }

  /** True when `address` parses and lies in one of the ranges. */
  has(address: string | undefined): boolean {
    const bytes = address === undefined ? undefined : parseIp(address);
    return !!bytes && this.contains(bytes);
  }

  /** True when the address (16 bytes, see parseIp) lies in one of the ranges. */
  contains(bytes: Uint8Array): boolean {
    return this.ranges.some((range) => inRange(bytes, range));
  }

  /** Both sets' ranges. */
  with(other: IpRanges): IpRanges {
    return new IpRanges([...this.ranges, ...other.ranges]);
  }
}

export const LOOPBACK = IpRanges.of("127.0.0.0/8", "::1");
export const PRIVATE_NETWORKS = IpRanges.of("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7");

export function isLoopback(address: string | undefined): boolean {
  return LOOPBACK.has(address);
}

/** `a.b.c.d`, `a.b.c.d/n`, an IPv6 address, or one with `/n`; undefined for anything else. */
export function parseIpRange(text: string): IpRange | undefined {
  const [address = "", prefix, ...rest] = text.trim().split("/");
  const bytes = parseIp(address);
  if (!bytes || rest.length > 0) return undefined;
  const v4 = !address.includes(":");
  const width = v4 ? 32 : 128;
  if (prefix === undefined) return { bytes, bits: 128 };
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > width) return undefined;
  return { bytes, bits: Number(prefix) + (v4 ? 96 : 0) };
}

export function inRange(address: Uint8Array, range: IpRange): boolean {
  const whole = range.bits >> 3;
  for (let i = 0; i < whole; i++) if (address[i] !== range.bytes[i]) return false;
  const rest = range.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (address[whole]! & mask) === (range.bytes[whole]! & mask);
}

/** 16 bytes for an IPv4 or IPv6 address (a zone such as `%eth0` is dropped), else undefined. */
export function parseIp(text: string): Uint8Array | undefined {
  const address = text.trim();
  if (!address.includes(":")) {
    const v4 = parseIpv4(address);
    return v4 && Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4]);
  }
  return parseIpv6(address.split("%")[0]!);
}

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const octets = parts.map((part) => (/^(0|[1-9]\d{0,2})$/.test(part) ? Number(part) : Number.NaN));
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}

function parseIpv6(text: string): Uint8Array | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

/** The 16-bit groups of one side of `::`; a final dotted IPv4 part counts as two. */
function groupsOf(text: string): number[] | undefined {
  if (text === "") return [];
  const parts = text.split(":");
  const groups: number[] = [];
  for (const [i, part] of parts.entries()) {
    if (i === parts.length - 1 && part.includes(".")) {
      const v4 = parseIpv4(part);
      if (!v4) return undefined;
      groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) groups.push(Number.parseInt(part, 16));
    else return undefined;
  }
  return groups;
}
