import type { sandboxMessages } from "../../db/tables";
import type { SandboxInbound } from "../../shared/contracts/sandbox";
import type { SandboxPresence } from "../../shared/contracts/presence";
import type { OwnPresence } from "../types";
import type { SandboxChange } from "../../shared/contracts/server-events";

/** What a simulated phone sends to a sandbox connection (the body of POST /sandbox/:id/inbound). */
export type { SandboxInbound };

/** A message the simulated network saw, in or out. */
export type SandboxMessageRow = typeof sandboxMessages.$inferSelect;

/** Which simulated conversation changed (what the `sandbox` socket event carries). */
export type { SandboxChange };

/**
 * How the app drives the simulated phones on the other side of sandbox connections (the /sandbox API).
 * Everything a phone does reaches the app through the sandbox driver's sink, as a real network's events would.
 */
export interface SandboxControls {
  /** The phone scans the connection's QR: the connection becomes CONNECTED. */
  scan(connectionId: number): Promise<void>;
  /** A phone writes to (or calls) the connection; returns the message id. */
  inbound(connectionId: number, input: SandboxInbound): Promise<string>;
  /** The network tells which phone number a LID belongs to. */
  mapLid(connectionId: number, lid: string, phone: string): Promise<void>;
  /** The contact at `peer` reads what the connection sent them. */
  read(connectionId: number, peer: string): Promise<void>;
  /** The network refuses a message the connection sent; false when the message is unknown. */
  reject(connectionId: number, wid: string): Promise<boolean>;
  /** A phone types, records, comes online or leaves. */
  presence(connectionId: number, input: SandboxPresence): Promise<void>;
  /** What the connection last showed the phone `to` (typing or paused), or null. */
  presenceShown(connectionId: number, to: string): Promise<OwnPresence | null>;
  /** What the connection sent, oldest first (to one peer when `to` is given). */
  outbox(connectionId: number, to?: string): Promise<SandboxMessageRow[]>;
  /** Calls `listener` whenever a simulated conversation changes; returns an unsubscribe. */
  subscribe(listener: (change: SandboxChange) => void): () => void;
}
