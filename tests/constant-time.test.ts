import { describe, expect, test } from "bun:test";
import { sameBytes } from "../src/shared/constant-time";
import { randomBase64url, randomHex } from "../src/shared/random";

describe("constant-time comparison", () => {
  test("equal bytes and equal strings are the same", () => {
    expect(sameBytes(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(sameBytes("sha256=abc", "sha256=abc")).toBe(true);
    expect(sameBytes("", "")).toBe(true);
    expect(sameBytes("çã", Buffer.from("çã"))).toBe(true);
  });

  test("a difference in any byte, or in length, is not the same", () => {
    const base = Buffer.from("0123456789abcdef");
    for (let i = 0; i < base.length; i++) {
      const other = Buffer.from(base);
      other[i]! ^= 0x01;
      expect(sameBytes(base, other)).toBe(false);
    }
    expect(sameBytes("abc", "abcd")).toBe(false);
    expect(sameBytes("abcd", "abc")).toBe(false);
    expect(sameBytes("", "a")).toBe(false);
  });

  test("strings are compared as their UTF-8 bytes", () => {
    expect(sameBytes("é", "e\u0301")).toBe(false);
    expect(sameBytes("é", Buffer.from([0xc3, 0xa9]))).toBe(true);
  });
});

describe("random text", () => {
  test("gives two lowercase hex digits per byte, different each time", () => {
    const a = randomHex(24);
    expect(a).toMatch(/^[0-9a-f]{48}$/);
    expect(randomHex(10)).toHaveLength(20);
    expect(randomHex(24)).not.toBe(a);
  });

  test("random base64url text carries its bytes in URL-safe characters and differs each time", () => {
    const a = randomBase64url(48);
    expect(a).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(Buffer.from(a, "base64url")).toHaveLength(48);
    expect(randomBase64url(48)).not.toBe(a);
  });
});
