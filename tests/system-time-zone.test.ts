import { describe, expect, test } from "bun:test";
import { systemTimeZone } from "../src/config";

describe("the process's time zone", () => {
  test("TZ wins over /etc/localtime", () => {
    expect(systemTimeZone("America/Sao_Paulo", () => "/usr/share/zoneinfo/Europe/Lisbon")).toBe("America/Sao_Paulo");
  });

  test("without TZ it is the zone /etc/localtime links to", () => {
    expect(systemTimeZone(undefined, () => "/usr/share/zoneinfo/America/Sao_Paulo")).toBe("America/Sao_Paulo");
    expect(systemTimeZone("", () => "../usr/share/zoneinfo/Europe/Lisbon")).toBe("Europe/Lisbon");
  });

  test("UTC under any of its names, and when /etc/localtime is missing", () => {
    expect(systemTimeZone(undefined, () => "/usr/share/zoneinfo/Etc/UTC")).toBe("UTC");
    expect(systemTimeZone("Etc/Universal", () => null)).toBe("UTC");
    expect(systemTimeZone(undefined, () => null)).toBe("UTC");
  });

  test("a /etc/localtime that is a copy, not a link, is read through Intl", () => {
    expect(systemTimeZone(undefined, () => undefined)).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
