import type { Provider } from "../../channels/types";
import type { Reader } from "../../db/client";
import type { EventBus } from "../../events/bus";
import { connectionProvider } from "./lookup";

/**
 * Each connection's provider, read once: every operation on a connection (a send asks three times) finds its
 * driver by it, and it changes only when an admin edits or deletes the connection. Those events, heard from every
 * node, forget it. A read that was under way while one arrived is not kept, since it may predate the change.
 */
export function providerCache(db: Reader, events: EventBus): (connectionId: number) => Promise<Provider | undefined> {
  const known = new Map<number, Provider>();
  let forgotten = 0;
  events.subscribeAll((event) => {
    if (event.name !== "connection.updated" && event.name !== "connection.deleted") return;
    known.delete(event.name === "connection.updated" ? event.payload.connection.id : event.payload.connectionId);
    forgotten++;
  });
  return async (connectionId) => {
    const cached = known.get(connectionId);
    if (cached) return cached;
    const before = forgotten;
    const provider = await connectionProvider(db, connectionId);
    if (provider && forgotten === before) known.set(connectionId, provider);
    return provider;
  };
}
