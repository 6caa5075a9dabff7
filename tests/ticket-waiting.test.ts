import { describe, expect, test } from "bun:test";
import { pastTarget, waitParts } from "../islands/tickets/waiting";

const MINUTE = 60_000;

describe("the ticket list's wait for a reply", () => {
  test("reads in whole minutes under an hour, whole hours under two days, then whole days", () => {
    expect(waitParts(59_999)).toEqual({ key: "minutes", n: 0 });
    expect(waitParts(12 * MINUTE + 30_000)).toEqual({ key: "minutes", n: 12 });
    expect(waitParts(60 * MINUTE)).toEqual({ key: "hours", n: 1 });
    expect(waitParts(47 * 60 * MINUTE)).toEqual({ key: "hours", n: 47 });
    expect(waitParts(3 * 24 * 60 * MINUTE)).toEqual({ key: "days", n: 3 });
  });

  test("shows the breach mark once the server recorded a breach or a due time is behind the local clock", () => {
    const sla = {
      firstResponseDueAt: "2026-01-01T10:10:00.000Z",
      resolutionDueAt: null,
      breached: false,
      breachedTargets: [],
    };
    const at = (iso: string) => Date.parse(iso);
    expect(pastTarget({ sla }, at("2026-01-01T10:09:59.999Z"))).toBe(false);
    expect(pastTarget({ sla }, at("2026-01-01T10:10:00.000Z"))).toBe(true);
    expect(
      pastTarget(
        { sla: { ...sla, firstResponseDueAt: null, breached: true, breachedTargets: ["first_response" as const] } },
        0,
      ),
    ).toBe(true);
  });
});
