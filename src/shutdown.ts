import type { Channels } from "./channels/types";
import type { SandboxNetwork } from "./channels/sandbox/network";
import { closeDatabase, type Db } from "./db/client";
import type { Logger } from "./log";

export interface RunningServer {
  /** The HTTP server, when listening. */
  app?: { stop(closeActiveConnections?: boolean): Promise<unknown> };
  /** Stops the periodic jobs. */
  stopJobs?: () => void | Promise<void>;
  channels: Channels;
  sandboxNetwork: SandboxNetwork;
  db: Db;
  /** The cross-node event bus, when nodes share PostgreSQL. */
  events?: object;
  log: Logger;
}

/**
 * Stops the server without losing what WhatsApp delivered: no more requests or jobs, then every connection
 * finishes handling the events it already took (what arrives meanwhile stays journaled for the next start) before
 * its socket ends, and only then the database closes.
 */
export async function stopServer(server: RunningServer, reason: string) {
  server.log.info("shutting down", { reason });
  await server.stopJobs?.();
  await server.app?.stop(true);
  await server.channels.stopAll();
  server.sandboxNetwork.cancelAll();
  await (server.events as { close?(): Promise<void> } | undefined)?.close?.();
  await closeDatabase(server.db);
}
