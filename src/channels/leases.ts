import { and, eq, lt, or } from "drizzle-orm";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "../db/client";
import { connectionLeases } from "../db/tables";
import type { Logger } from "../log";
import { makePrivateDir } from "../private-files";

/** How long a lease lasts unless renewed: a node that died lets its connections go after at most this long. */
export const LEASE_MS = 15_000;
/** How often a node renews its leases and looks for connections nobody runs. */
export const RENEW_EVERY_MS = 5_000;

/**
 * The name this node holds leases under, kept in its DATA_DIR (each node has a directory of its own): a node
 * restarted after a crash takes its connections back at once instead of waiting for its old leases to expire.
 */
export function nodeName(dataDir: string): string {
  const file = join(dataDir, "node-id");
  const kept = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
  if (kept) return kept;
  const name = crypto.randomUUID().slice(0, 8);
  makePrivateDir(dataDir);
  writeFileSync(file, name);
  return name;
}

/**
 * Which node runs each WhatsApp connection when several share one PostgreSQL database: exactly one holds the
 * connection's lease at a time. Taking one is a single statement that succeeds only when the lease is free,
 * expired, or already this node's, so two nodes never both run a connection's socket.
 */
export class ConnectionLeases {
  constructor(
    private readonly db: Db,
    readonly nodeId: string,
    private readonly now: () => number,
  ) {}

  /** Takes (or keeps) the lease of the connection; false when another node holds it. */
  async claim(connectionId: number): Promise<boolean> {
    const now = this.now();
    const expiresAt = new Date(now + LEASE_MS);
    const [row] = await this.db
      .insert(connectionLeases)
      .values({ whatsappId: connectionId, nodeId: this.nodeId, expiresAt })
      .onConflictDoUpdate({
        target: connectionLeases.whatsappId,
        set: { nodeId: this.nodeId, expiresAt },
        setWhere: or(eq(connectionLeases.nodeId, this.nodeId), lt(connectionLeases.expiresAt, new Date(now))),
      })
      .returning({ nodeId: connectionLeases.nodeId });
    return row?.nodeId === this.nodeId;
  }

  /** Extends every lease this node holds; returns the connections it still holds. */
  async renew(): Promise<number[]> {
    const rows = await this.db
      .update(connectionLeases)
      .set({ expiresAt: new Date(this.now() + LEASE_MS) })
      .where(eq(connectionLeases.nodeId, this.nodeId))
      .returning({ id: connectionLeases.whatsappId });
    return rows.map((r) => r.id);
  }

  /** Lets the connection go (this node stopped running it), so another node may take it at once. */
  async release(connectionId: number): Promise<void> {
    await this.db
      .delete(connectionLeases)
      .where(and(eq(connectionLeases.whatsappId, connectionId), eq(connectionLeases.nodeId, this.nodeId)));
  }

  /** The node holding the connection's lease now, if any. */
  async holder(connectionId: number): Promise<string | undefined> {
    const [row] = await this.db
      .select({ nodeId: connectionLeases.nodeId, expiresAt: connectionLeases.expiresAt })
      .from(connectionLeases)
      .where(eq(connectionLeases.whatsappId, connectionId));
    return row && row.expiresAt.getTime() >= this.now() ? row.nodeId : undefined;
  }
}

/** What the keeper asks of the connection manager. */
export interface LeasedConnections {
  /** Connections that should run (every one not deliberately disconnected). */
  wanted(): Promise<number[]>;
  isRunningHere(connectionId: number): Promise<boolean>;
  /** Starts the connection here (it claims the lease first). */
  start(connectionId: number): Promise<void>;
  /** Stops the connection here without releasing anything (its lease is gone already). */
  stopHere(connectionId: number): Promise<void>;
  /** Carries out what other nodes asked of the connection, when it runs here. */
  runCommands(connectionId: number): Promise<void>;
}

/**
 * Every RENEW_EVERY_MS: renews this node's leases, stops what it lost (a pause longer than a lease let another
 * node take over), starts the wanted connections no node runs any more, taking over a dead node's, and carries
 * out the commands left for its connections (one whose notification was missed waits at most this long).
 */
export function keepLeases(leases: ConnectionLeases, connections: LeasedConnections, log: Logger) {
  let busy = false;
  const pass = async () => {
    if (busy) return;
    busy = true;
    try {
      const held = new Set(await leases.renew());
      for (const id of await connections.wanted()) {
        const here = await connections.isRunningHere(id);
        if (here && !held.has(id)) {
          log.warn("connection lease lost: another node runs it now", { whatsappId: id, node: leases.nodeId });
          await connections.stopHere(id);
        } else if (!here && (await leases.holder(id)) === undefined) {
          log.info("connection taken over", { whatsappId: id, node: leases.nodeId });
          await connections.start(id);
        } else if (here) {
          // Not awaited: a long list of commands must not hold up the next renewal.
          void connections.runCommands(id).catch((error) => log.error("connection commands not run", { error }));
        }
      }
    } catch (error) {
      log.error("connection leases not kept", { error });
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void pass(), RENEW_EVERY_MS);
  timer.unref?.();
  return { pass, stop: () => clearInterval(timer) };
}
