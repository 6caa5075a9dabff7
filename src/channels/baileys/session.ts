import type { WASocket } from "baileys";
import type { ChannelSink, ConnectionRef } from "../types";
import type { SqliteAuthState } from "./auth-store";
import type { GroupMetadataCache } from "./group-cache";

/** One socket of a running connection; a reconnect opens a new one under a new `gen`. */
export interface Session {
  conn: ConnectionRef;
  sink: ChannelSink;
  gen: number;
  sock: WASocket;
  auth: SqliteAuthState;
  groups: GroupMetadataCache;
  qrCount: number;
  /** Consecutive failed attempts; `downSince` = when the first of them closed. */
  failures: number;
  downSince?: number;
  pairing: boolean;
  closed: boolean;
  cancelTimer?: () => void;
  calls: Map<string, string>;
  firstQr: Promise<void>;
  qrSeen: () => void;
}

/** Runs `fn` after `ms` milliseconds; returns a function that cancels it. */
export type SetTimer = (fn: () => void, ms: number) => () => void;

export const realTimer: SetTimer = (fn, ms) => {
  const handle = setTimeout(fn, ms);
  return () => clearTimeout(handle);
};
