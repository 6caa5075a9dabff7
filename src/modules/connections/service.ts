import { and, asc, count, eq, ne } from "drizzle-orm";
import type { Db } from "../../db/client";
import { connectionQueues, connections, type ConnectionRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, notFound } from "../../errors";
import type { ConnectionDto } from "../../shared/contracts/connections";
import { can, type Role } from "../../shared/permissions";
import { firstLevelOptions } from "../queues/chatbot-tree";
import { assertQueuesExist, type QueueSummary, queueSummaries } from "../queues/lookup";
import { findConnection, queueIdsOfConnections } from "./lookup";
import type { ConnectionModel } from "./model";

/** The call token is an integration secret and a pending QR pairs a phone with the connection: only admins see them. */
function present<T extends ConnectionRow>(row: T, profile: Role | null) {
  if (profile && can(profile, "connections:manage")) return row;
  const { wavoip: _secret, qrcode: _pairing, ...rest } = row;
  return rest;
}

/** The queues each connection offers, in id order. */
function queuesOf(db: Db, ids: number[]) {
  const linked = queueIdsOfConnections(db, ids);
  const summaries = queueSummaries(db, [...linked.values()].flat());
  const byConnection = new Map<number, QueueSummary[]>();
  for (const [whatsappId, queueIds] of linked)
    byConnection.set(
      whatsappId,
      summaries.filter((q) => queueIds.includes(q.id)),
    );
  return byConnection;
}

/** GET /whatsapp: every connection with its queues, in id order. */
export function listConnections(db: Db, profile: Role): ConnectionDto[] {
  const rows = db.select().from(connections).orderBy(asc(connections.id)).all();
  const byConnection = queuesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ ...present(row, profile), queues: byConnection.get(row.id) ?? [] }));
}

/** GET /whatsapp/:id: the connection with its queues and their first-level chatbot options. */
export function showConnection(db: Db, id: number, profile: Role | null) {
  const row = findConnection(db, id);
  if (!row) throw notFound("ERR_NO_WAPP_FOUND");
  const linked = queuesOf(db, [id]).get(id) ?? [];
  const options = firstLevelOptions(
    db,
    linked.map((q) => q.id),
  );
  return {
    ...present(row, profile),
    queues: linked.map((q) => ({
      ...q,
      chatbots: options
        .filter((o) => o.queueId === q.id)
        .map(({ id, name, greetingMessage }) => ({ id, name, greetingMessage })),
    })),
  };
}

function validate(deps: AppDeps, input: ConnectionModel.Update, current?: ConnectionRow) {
  if (input.provider === "sandbox" && !deps.config.sandbox) throw new AppError("ERR_SANDBOX_DISABLED", 403);
  const name = input.name?.trim();
  if (name !== undefined) {
    const clash = deps.db
      .select({ id: connections.id })
      .from(connections)
      .where(and(eq(connections.name, name), current ? ne(connections.id, current.id) : undefined))
      .get();
    if (clash) throw new AppError("ERR_WAPP_NAME_ALREADY_EXISTS", 400);
  }
  if (input.queueIds) assertQueuesExist(deps.db, input.queueIds);
  const queueCount = input.queueIds
    ? new Set(input.queueIds).size
    : current
      ? (queuesOf(deps.db, [current.id]).get(current.id)?.length ?? 0)
      : 0;
  const greeting = input.greetingMessage ?? current?.greetingMessage ?? "";
  if (queueCount > 1 && !greeting.trim()) throw new AppError("ERR_WAPP_GREETING_REQUIRED", 400);
}

function fieldsOf(input: ConnectionModel.Update) {
  const { queueIds: _queues, ...fields } = input;
  return { ...fields, ...(fields.name !== undefined ? { name: fields.name.trim() } : {}) };
}

function replaceQueues(
  tx: Parameters<Parameters<Db["transaction"]>[0]>[0],
  id: number,
  queueIds: number[] | undefined,
) {
  if (queueIds === undefined) return;
  tx.delete(connectionQueues).where(eq(connectionQueues.whatsappId, id)).run();
  const ids = [...new Set(queueIds)];
  if (ids.length)
    tx.insert(connectionQueues)
      .values(ids.map((queueId) => ({ whatsappId: id, queueId })))
      .run();
}

/** Connection events go to admins only (they manage connections), so they carry what an admin reads. */
function publishUpdate(deps: AppDeps, id: number) {
  deps.events.emit("connection.updated", { connection: showConnection(deps.db, id, "admin") });
}

/** POST /whatsapp: the first connection becomes the default; the session starts right away. */
export function createConnection(deps: AppDeps, input: ConnectionModel.Create) {
  validate(deps, input);
  const isFirst = (deps.db.select({ n: count() }).from(connections).get()?.n ?? 0) === 0;
  const isDefault = isFirst || input.isDefault === true;
  const { id, previousDefaults } = deps.db.transaction((tx) => {
    const previousDefaults = isDefault
      ? tx
          .update(connections)
          .set({ isDefault: false })
          .where(eq(connections.isDefault, true))
          .returning({ id: connections.id })
          .all()
      : [];
    const row = tx
      .insert(connections)
      .values({ ...fieldsOf(input), name: input.name.trim(), isDefault, status: "OPENING" })
      .returning({ id: connections.id })
      .get();
    replaceQueues(tx, row.id, input.queueIds);
    return { id: row.id, previousDefaults };
  });
  for (const previous of previousDefaults) publishUpdate(deps, previous.id);
  publishUpdate(deps, id);
  Promise.resolve()
    .then(() => deps.channels.start(id))
    .catch((error) => deps.log.error("connection start failed", { connectionId: id, error }));
  return showConnection(deps.db, id, "admin");
}

/** PUT /whatsapp/:id: every given field is written; `queueIds` absent leaves the queues alone. */
export function updateConnection(deps: AppDeps, id: number, input: ConnectionModel.Update) {
  const current = findConnection(deps.db, id);
  if (!current) throw notFound("ERR_NO_WAPP_FOUND");
  validate(deps, input, current);
  if (input.isDefault === false && current.isDefault) throw new AppError("ERR_NO_OTHER_WHATSAPP", 400);
  const previousDefaults = deps.db.transaction((tx) => {
    const previous =
      input.isDefault === true && !current.isDefault
        ? tx
            .update(connections)
            .set({ isDefault: false })
            .where(and(eq(connections.isDefault, true), ne(connections.id, id)))
            .returning({ id: connections.id })
            .all()
        : [];
    const fields = fieldsOf(input);
    if (Object.keys(fields).length) tx.update(connections).set(fields).where(eq(connections.id, id)).run();
    replaceQueues(tx, id, input.queueIds);
    return previous;
  });
  for (const previous of previousDefaults) publishUpdate(deps, previous.id);
  publishUpdate(deps, id);
  return showConnection(deps.db, id, "admin");
}

/** DELETE /whatsapp/:id: logs the session out, then removes the row (its phone book and credentials go with it). */
export async function deleteConnection(deps: AppDeps, id: number) {
  const current = findConnection(deps.db, id);
  if (!current) throw notFound("ERR_NO_WAPP_FOUND");
  const total = deps.db.select({ n: count() }).from(connections).get()?.n ?? 0;
  if (current.isDefault && total > 1) throw new AppError("ERR_NO_OTHER_WHATSAPP", 400);
  try {
    await deps.channels.disconnect(id);
  } catch (error) {
    deps.log.warn("connection logout failed before delete", { connectionId: id, error });
  }
  deps.db.delete(connections).where(eq(connections.id, id)).run();
  deps.events.emit("connection.deleted", { connectionId: id });
}

/** How many connections are in each status (monitoring). */
export function countConnectionsByStatus(db: Db): { status: string; count: number }[] {
  return db.select({ status: connections.status, count: count() }).from(connections).groupBy(connections.status).all();
}
