import type { Provider } from "../../channels/types";
import type { Reader } from "../../db/client";
import type { EventBus } from "../../events/bus";
import { keptReads } from "../../events/kept-reads";
import { connectionProvider } from "./lookup";

/**
 * Each connection's provider, read once: every operation on a connection (a send asks three times) finds its
 * driver by it, and it changes only when an admin edits or deletes the connection. Those events, heard from every
 * node, forget it (see keptReads).
 */
export function providerCache(db: Reader, events: EventBus): (connectionId: number) => Promise<Provider | undefined> {
  return keptReads(
    events,
    (connectionId: number) => connectionProvider(db, connectionId),
    (event) =>
      event.name === "connection.updated"
        ? event.payload.connection.id
        : event.name === "connection.deleted"
          ? event.payload.connectionId
          : undefined,
    { keep: (provider) => provider !== undefined },
  );
}
