/** What one socket may send, and the close codes the browser client acts on. */

/** The largest client frame, in bytes: Bun closes the socket (1009) before a larger one reaches JS. */
export const MAX_FRAME_BYTES = 4096;

/** Frames a socket may send in a burst, and how many it regains per second. */
export const FRAME_BURST = 30;
export const FRAMES_PER_SECOND = 10;

/** Over-limit frames are dropped; a socket that keeps sending past this allowance is closed. */
export const DROPPED_FRAME_ALLOWANCE = 50;
export const DROPPED_FRAMES_FORGIVEN_PER_SECOND = 1;

/** Log lines one socket may cause about refused or invalid frames: a few, then one a minute. */
export const LOG_LINES_BURST = 5;
export const LOG_LINES_PER_SECOND = 1 / 60;

/** How often sockets whose access token expired are closed when no event flows. */
export const SWEEP_INTERVAL_MS = 5_000;

export const CLOSE = {
  /** The session behind the socket ended (token expired, revoked, user deleted): refresh and reconnect. */
  sessionEnded: 4001,
  /** RFC 6455 policy violation: the socket kept flooding. */
  policyViolation: 1008,
} as const;

/** Bun's server-wide WebSocket settings (Elysia reads them from the root app). */
export const socketServerOptions = { maxPayloadLength: MAX_FRAME_BYTES };
