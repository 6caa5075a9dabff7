import { describe, expect, test } from "bun:test";
import { IpRanges, isLoopback, parseIp, parseIpRange } from "../src/shared/ip-ranges";

const hex = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString("hex") : undefined);

describe("IP addresses and ranges", () => {
  test("IPv4 and IPv6 addresses parse to 16 bytes, IPv4 in its IPv4-mapped form", () => {
    expect(hex(parseIp("192.0.2.1"))).toBe("00000000000000000000ffffc0000201");
    expect(hex(parseIp("::ffff:192.0.2.1"))).toBe(hex(parseIp("192.0.2.1")));
    expect(hex(parseIp("::ffff:c000:201"))).toBe(hex(parseIp("192.0.2.1")));
    expect(hex(parseIp("2001:db8::1"))).toBe("20010db8000000000000000000000001");
    expect(hex(parseIp("2001:DB8:0:0:0:0:0:1"))).toBe(hex(parseIp("2001:db8::1")));
    expect(hex(parseIp("::"))).toBe("0".repeat(32));
    expect(hex(parseIp("1:2:3:4:5:6:7::"))).toBe("00010002000300040005000600070000");
    expect(hex(parseIp("fe80::1%eth0"))).toBe(hex(parseIp("fe80::1")));
  });

  test("anything else is not an address", () => {
    for (const text of [
      "",
      "unknown",
      "1.2.3",
      "1.2.3.4.5",
      "256.1.1.1",
      "01.2.3.4",
      "1.2.3.-4",
      "1:2:3:4:5:6:7",
      "1:2:3:4:5:6:7:8:9",
      "1::2::3",
      ":::",
      "12345::",
      "g::1",
      "::1.2.3",
      "1:2:3:4:5:6:7:8::",
    ])
      expect({ text, bytes: parseIp(text) }).toEqual({ text, bytes: undefined });
  });

  test("a range holds the addresses that share its prefix, IPv4 ones in either spelling", () => {
    const ranges = IpRanges.of("10.0.0.0/8", "172.16.0.0/12", "192.0.2.7", "2001:db8::/33", "::ffff:198.51.100.0/120");
    for (const inside of [
      "10.255.0.1",
      "::ffff:10.0.0.1",
      "172.31.255.255",
      "192.0.2.7",
      "2001:db8:7fff::1",
      "198.51.100.9",
    ])
      expect({ inside, held: ranges.has(inside) }).toEqual({ inside, held: true });
    for (const outside of ["11.0.0.1", "172.32.0.1", "192.0.2.8", "2001:db8:8000::1", "198.51.101.1", "::a00:1", "x"])
      expect({ outside, held: ranges.has(outside) }).toEqual({ outside, held: false });
    expect(ranges.has(undefined)).toBe(false);
  });

  test("/0 holds every address of its family only", () => {
    expect(IpRanges.of("0.0.0.0/0").has("203.0.113.1")).toBe(true);
    expect(IpRanges.of("0.0.0.0/0").has("2001:db8::1")).toBe(false);
    expect(IpRanges.of("::/0").has("2001:db8::1")).toBe(true);
  });

  test("prefixes longer than the family's width, or not numbers, are not ranges", () => {
    for (const text of ["10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/8/8", "10.0.0.0/x", "10.0.0/8"])
      expect({ text, range: parseIpRange(text) }).toEqual({ text, range: undefined });
    expect(() => IpRanges.of("10.0.0.0/33")).toThrow('"10.0.0.0/33" is not an IP address or CIDR range');
  });

  test("loopback is 127.0.0.0/8 and ::1, also as ::ffff:127.x", () => {
    for (const address of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"])
      expect({ address, loopback: isLoopback(address) }).toEqual({ address, loopback: true });
    for (const address of ["128.0.0.1", "::2", "::", "10.0.0.1", "local", undefined])
      expect({ address, loopback: isLoopback(address) }).toEqual({ address, loopback: false });
  });
});
