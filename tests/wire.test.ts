import { describe, expect, test } from "bun:test";
import { toWire } from "../src/shared/contracts/wire";

describe("toWire", () => {
  test("gives what a JSON round trip gives: dates as ISO strings, undefined fields dropped, nulls kept", () => {
    const value = {
      id: 1,
      at: new Date("2026-01-02T03:04:05.678Z"),
      never: new Date(Number.NaN),
      gone: undefined,
      call: () => 1,
      empty: null,
      ratio: Number.POSITIVE_INFINITY,
      nested: { list: [1, undefined, new Date(0), { deep: "x", skip: undefined }], kept: false },
      set: new Set([1]),
    };
    expect(toWire(value)).toEqual(JSON.parse(JSON.stringify(value)));
    expect(JSON.stringify(toWire(value))).toBe(JSON.stringify(value));
  });
});
