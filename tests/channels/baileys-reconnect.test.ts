import { describe, expect, test } from "bun:test";
import { backoffDelay, closeAction, DEFAULT_BACKOFF, QR_ATTEMPTS_ENDED } from "../../src/channels/baileys/reconnect";

const mid = () => 0.5; // no jitter

describe("baileys close-code table", () => {
  test("515 restarts at once", () => {
    expect(closeAction(515, "restart required", 0)).toEqual({ kind: "restart" });
  });

  test("401, 403 and 411 wipe credentials and disconnect", () => {
    for (const code of [401, 403, 411])
      expect(closeAction(code, "", 0)).toMatchObject({ kind: "disconnect", wipe: true, clearQr: true });
  });

  test("440 disconnects without retry and keeps credentials", () => {
    expect(closeAction(440, "conflict", 0)).toMatchObject({ kind: "disconnect", wipe: false });
  });

  test("408 with QR refs ended disconnects with an empty QR; other 408 retries", () => {
    expect(closeAction(408, QR_ATTEMPTS_ENDED, 0)).toMatchObject({ kind: "disconnect", clearQr: true });
    expect(closeAction(408, "Connection was lost", 0, DEFAULT_BACKOFF, mid)).toEqual({
      kind: "retry",
      delayMs: 1000,
      attempt: 1,
    });
  });

  test("405 disconnects with a version reason and keeps credentials", () => {
    const action = closeAction(405, "Connection Failure", 0);
    expect(action).toMatchObject({ kind: "disconnect", wipe: false });
    expect(action.kind === "disconnect" && action.reason).toContain("version");
  });

  test("transient codes back off exponentially up to 5 minutes and never give up", () => {
    expect(closeAction(428, "", 3, DEFAULT_BACKOFF, mid)).toEqual({ kind: "retry", delayMs: 8000, attempt: 4 });
    expect(closeAction(503, "", 8, DEFAULT_BACKOFF, mid)).toEqual({ kind: "retry", delayMs: 256_000, attempt: 9 });
    expect(closeAction(503, "", 9, DEFAULT_BACKOFF, mid)).toEqual({ kind: "retry", delayMs: 300_000, attempt: 10 });
    expect(closeAction(500, "", 10_000, DEFAULT_BACKOFF, mid)).toEqual({
      kind: "retry",
      delayMs: 300_000,
      attempt: 10_001,
    });
    expect(closeAction(undefined, undefined, 0, DEFAULT_BACKOFF, mid)).toMatchObject({ kind: "retry" });
  });

  test("every close other than logout, replacement, version rejection and an unscanned QR is retried", () => {
    const terminal = [401, 403, 405, 411, 440];
    for (const code of [undefined, 400, 402, 406, 408, 428, 429, 500, 501, 503, 599]) {
      expect(closeAction(code, "Connection Failure", 0).kind).toBe("retry");
    }
    for (const code of terminal) expect(closeAction(code, "", 0).kind).toBe("disconnect");
  });

  test("jitter stays within ±20 % and never pushes a wait above the cap", () => {
    expect(backoffDelay(2, DEFAULT_BACKOFF, () => 0)).toBe(3200);
    expect(backoffDelay(2, DEFAULT_BACKOFF, () => 1)).toBe(4800);
    expect(backoffDelay(20, DEFAULT_BACKOFF, () => 0)).toBe(240_000);
    expect(backoffDelay(20, DEFAULT_BACKOFF, () => 1)).toBe(300_000);
    for (let n = 0; n < 2000; n += 7) expect(backoffDelay(n)).toBeLessThanOrEqual(300_000);
  });
});
