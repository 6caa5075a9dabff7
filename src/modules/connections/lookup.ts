import { first, type Reader } from "../../db/client";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { eachId, gatheredById, lookupEachKey } from "../../db/gathered";
import { prepared } from "../../db/prepared";
import { amongIdList, idList } from "../../db/index-hints";
import { type ConnectionRow, connectionQueues, connections } from "../../db/tables";
import { AppError } from "../../errors";
import { WARNING_STATUSES } from "../../shared/contracts/connections";
import type { Provider } from "../../shared/contracts/providers";

/** The connection row by id. */
export async function findConnection(db: Reader, id: number): Promise<ConnectionRow | undefined> {
  return await connectionById(db).get({ id });
}

const connectionById = prepared((db) =>
  db
    .select()
    .from(connections)
    .where(eq(connections.id, sql.placeholder("id")))
    .prepare(),
);

/** The connection's provider kind, or undefined when there is no such connection. */
export async function connectionProvider(db: Reader, id: number): Promise<Provider | undefined> {
  return (await providerById(db).get({ id }))?.provider;
}

const providerById = prepared((db) =>
  db
    .select({ provider: connections.provider })
    .from(connections)
    .where(eq(connections.id, sql.placeholder("id")))
    .prepare(),
);

/** True when a connection is in a state that needs an admin's attention. */
export async function someConnectionNeedsAttention(db: Reader): Promise<boolean> {
  return !!(await connectionNeedingAttention(db).get());
}

const connectionNeedingAttention = prepared((db) =>
  db
    .select({ id: connections.id })
    .from(connections)
    .where(inArray(connections.status, [...WARNING_STATUSES]))
    .limit(1)
    .prepare(),
);

/** True when the connection exists. */
export async function connectionExists(db: Reader, id: number): Promise<boolean> {
  return !!(await first(db.select({ id: connections.id }).from(connections).where(eq(connections.id, id))));
}

/** True when every one of `ids` is a connection. */
export async function allConnectionsExist(db: Reader, ids: readonly number[]): Promise<boolean> {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return true;
  return (
    (await db.select({ id: connections.id }).from(connections).where(inArray(connections.id, distinct))).length ===
    distinct.length
  );
}

/** A connection as the lists that name it show it; `hasCall`: it has a voice-call token (never the token). */
export interface ConnectionSummary {
  id: number;
  name: string;
  number: string;
  hasCall: boolean;
}

/** The connections among `ids` that exist. */
export async function connectionSummaries(db: Reader, ids: readonly number[]): Promise<ConnectionSummary[]> {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return [];
  const rows =
    distinct.length === 1
      ? [await gatheredConnectionSummary(db, distinct[0]!)].filter((row) => row !== undefined)
      : await connectionSummariesByIds(db).all({ ids: idList(distinct) });
  return rows.map(({ wavoip, ...connection }) => ({ ...connection, hasCall: wavoip.trim() !== "" }));
}

/** The first connection (by id) that is not the default one, if any. */
export async function firstNonDefaultConnection(db: Reader): Promise<number | undefined> {
  return (
    await first(
      db
        .select({ id: connections.id })
        .from(connections)
        .where(eq(connections.isDefault, false))
        .orderBy(asc(connections.id)),
    )
  )?.id;
}

const connectionSummary = () => ({
  id: connections.id,
  name: connections.name,
  number: connections.number,
  wavoip: connections.wavoip,
});

const connectionSummariesByIds = prepared((db) =>
  db.select(connectionSummary()).from(connections).where(amongIdList(connections.id, "ids")).prepare(),
);

const connectionSummaryById = prepared((db) =>
  db
    .select(connectionSummary())
    .from(connections)
    .where(eq(connections.id, sql.placeholder("id")))
    .prepare(),
);

const connectionSummariesEachId = prepared((db) =>
  lookupEachKey(
    db,
    eachId("ids"),
    db.select(connectionSummary()).from(connections).where(sql`${connections.id} = k.id`),
  ),
);

const gatheredConnectionSummary = gatheredById<{ id: number; name: string; number: string; wavoip: string }>(
  connectionSummaryById,
  connectionSummariesEachId,
);

/** The ids of the connections whose session is connected. */
export async function connectedIds(db: Reader): Promise<number[]> {
  return (await db.select({ id: connections.id }).from(connections).where(eq(connections.status, "CONNECTED"))).map(
    (r) => r.id,
  );
}

/** The global default connection; 400 ERR_NO_DEF_WAPP_FOUND when there is none. */
export async function globalDefaultConnection(db: Reader): Promise<number> {
  const row = await first(
    db
      .select({ id: connections.id })
      .from(connections)
      .where(eq(connections.isDefault, true))
      .orderBy(asc(connections.id)),
  );
  if (!row) throw new AppError("ERR_NO_DEF_WAPP_FOUND", 400);
  return row.id;
}

/** The ids of the queues a connection offers, per connection. */
export async function queueIdsOfConnections(db: Reader, ids: readonly number[]): Promise<Map<number, number[]>> {
  const byConnection = new Map<number, number[]>();
  if (!ids.length) return byConnection;
  const rows =
    ids.length === 1
      ? await queuesOfConnection(db).all({ connectionId: ids[0] })
      : await db
          .select(connectionQueueLink())
          .from(connectionQueues)
          .where(inArray(connectionQueues.whatsappId, [...ids]));
  for (const { whatsappId, queueId } of rows)
    byConnection.set(whatsappId, [...(byConnection.get(whatsappId) ?? []), queueId]);
  return byConnection;
}

const connectionQueueLink = () => ({ whatsappId: connectionQueues.whatsappId, queueId: connectionQueues.queueId });

const queuesOfConnection = prepared((db) =>
  db
    .select(connectionQueueLink())
    .from(connectionQueues)
    .where(eq(connectionQueues.whatsappId, sql.placeholder("connectionId")))
    .prepare(),
);
