import { type Db, first } from "../../db/client";
import { eq, ne } from "drizzle-orm";
import type { ConnectionRecords, ConnectionStatus, StatusInfo } from "../../channels/types";
import { type ConnectionRow, connectionPhonebook, connections } from "../../db/tables";
import type { EventBus } from "../../events/bus";
import { providerCache } from "./provider-cache";

/** The session row as announced: the connection row without its call token (`wavoip`). */
export function publicSession(row: ConnectionRow) {
  const { wavoip: _secret, ...session } = row;
  return session;
}

/** The connections table as the connection manager sees it; every status change is announced on the bus. */
export function connectionRecords(db: Db, events: EventBus): ConnectionRecords {
  const providerOf = providerCache(db, events);
  return {
    async load(connectionId) {
      const row = await first(db.select().from(connections).where(eq(connections.id, connectionId)));
      if (!row) return undefined;
      return {
        id: row.id,
        name: row.name,
        provider: row.provider,
        ...(row.importHistory ? { historyDays: row.importHistoryDays } : {}),
      };
    },

    providerOf,

    async ids() {
      return (await db.select({ id: connections.id }).from(connections)).map((r) => r.id);
    },

    async idsToStart() {
      return (
        await db.select({ id: connections.id }).from(connections).where(ne(connections.status, "DISCONNECTED"))
      ).map((r) => r.id);
    },

    async shouldRun(connectionId) {
      const row = await first(
        db.select({ status: connections.status }).from(connections).where(eq(connections.id, connectionId)),
      );
      return !!row && row.status !== "DISCONNECTED";
    },

    async saveStatus(connectionId, status, info) {
      const row = await first(
        db.update(connections).set(statusChanges(status, info)).where(eq(connections.id, connectionId)).returning(),
      );
      if (!row) return false;
      // It carries the pending pairing QR (whoever scans it owns the connection): only admins may hear it.
      events.emit("connection.status", { session: publicSession(row) });
      return true;
    },

    async forgetPhonebook(connectionId) {
      await db.delete(connectionPhonebook).where(eq(connectionPhonebook.whatsappId, connectionId));
    },
  };
}

/**
 * The row changes a status brings: a QR only lives while the QR shows, and the reconnect count starts again once
 * the connection opens or asks to be paired anew.
 */
function statusChanges(status: ConnectionStatus, info: StatusInfo): Partial<ConnectionRow> {
  const changes: Partial<ConnectionRow> = {
    status,
    statusReason: status === "DISCONNECTED" ? (info.reason ?? "") : "",
  };
  if (info.qr !== undefined) changes.qrcode = info.qr;
  else if (status !== "qrcode") changes.qrcode = "";
  if (info.number !== undefined) changes.number = info.number;
  if (info.retries !== undefined) changes.retries = info.retries;
  else if (status === "CONNECTED" || status === "qrcode") changes.retries = 0;
  return changes;
}
