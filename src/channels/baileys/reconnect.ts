/** What to do after a Baileys socket closed. */
export type CloseAction =
  | { kind: "restart" }
  | { kind: "disconnect"; wipe: boolean; reason?: string; clearQr?: boolean }
  | { kind: "retry"; delayMs: number; attempt: number };

export interface BackoffOptions {
  baseMs: number;
  /** No wait is longer than this, jitter included. */
  maxMs: number;
  /** Fraction of the delay added or removed at random (0.2 = ±20 %). */
  jitter: number;
}

/** 1 s, 2 s, 4 s … then every 4–5 minutes, with no attempt limit: an outage of any length ends in a reconnect. */
export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, maxMs: 5 * 60_000, jitter: 0.2 };

export const QR_ATTEMPTS_ENDED = "QR refs attempts ended";
export const REASON_VERSION_REJECTED =
  "WhatsApp rejected this client version (405): set WA_VERSION to the current WhatsApp Web version or update Zapdesk";
export const REASON_REPLACED = "Connection replaced by another session";
export const REASON_LOGGED_OUT = "Logged out";
export const REASON_FORBIDDEN = "Account restricted";

/**
 * Maps a close code (+ error message) and the number of consecutive failed attempts so far to an action.
 * Only a logout (401/403/411), a replaced session (440), a rejected client version (405) and an unscanned QR
 * end a connection; every other close is retried for as long as it takes.
 * `random` is injectable so tests can pin the jitter.
 */
export function closeAction(
  code: number | undefined,
  message: string | undefined,
  failedAttempts: number,
  backoff: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): CloseAction {
  switch (code) {
    case 515:
      return { kind: "restart" };
    case 401:
      return { kind: "disconnect", wipe: true, reason: REASON_LOGGED_OUT, clearQr: true };
    case 403:
      return { kind: "disconnect", wipe: true, reason: REASON_FORBIDDEN, clearQr: true };
    case 411:
      return { kind: "disconnect", wipe: true, reason: "Multi-device mismatch", clearQr: true };
    case 440:
      return { kind: "disconnect", wipe: false, reason: REASON_REPLACED };
    case 405:
      return { kind: "disconnect", wipe: false, reason: REASON_VERSION_REJECTED };
  }
  if (code === 408 && message?.includes(QR_ATTEMPTS_ENDED)) {
    return { kind: "disconnect", wipe: true, reason: QR_ATTEMPTS_ENDED, clearQr: true };
  }
  return { kind: "retry", delayMs: backoffDelay(failedAttempts, backoff, random), attempt: failedAttempts + 1 };
}

/** base·2^n with ±jitter, never above max. */
export function backoffDelay(
  n: number,
  backoff: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const raw = Math.min(backoff.maxMs, backoff.baseMs * 2 ** n);
  const spread = raw * backoff.jitter * (random() * 2 - 1);
  return Math.min(backoff.maxMs, Math.max(0, Math.round(raw + spread)));
}
