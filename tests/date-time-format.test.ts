import { describe, expect, test } from "bun:test";
import { format } from "date-fns";
import { DATE_TIME, parseDateTime } from "../islands/lib/format";

describe("dates typed in the app's format", () => {
  test("dd/MM/yyyy HH:mm and the browser picker's yyyy-MM-ddTHH:mm read as the same local instant", () => {
    const expected = new Date(2026, 11, 24, 9, 5);
    expect(parseDateTime("24/12/2026 09:05")).toEqual(expected);
    expect(parseDateTime(" 24/12/2026  9:05 ")).toEqual(expected);
    expect(parseDateTime("2026-12-24T09:05")).toEqual(expected);
    expect(format(expected, DATE_TIME)).toBe("24/12/2026 09:05");
  });

  test("a day that does not exist, a time past 23:59 or another format is not read", () => {
    for (const text of [
      "31/02/2026 10:00",
      "24/13/2026 10:00",
      "24/12/2026 24:00",
      "24/12/2026 10:60",
      "12/24/26 10:00",
      "amanhã",
      "",
    ]) {
      expect(parseDateTime(text)).toBeNull();
    }
  });
});
