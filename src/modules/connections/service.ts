import { atomically, type Db, first, one, type Writer } from "../../db/client";
import { and, asc, count, eq, ne } from "drizzle-orm";
import { type CloudAccountRow, connectionQueues, connections, type ConnectionRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, notFound } from "../../errors";
import type { ConnectionDto } from "../../shared/contracts/connections";
import { can, type Role } from "../../shared/permissions";
import { firstLevelOptions } from "../queues/chatbot-tree";
import { assertQueuesExist, type QueueSummary, queueSummaries } from "../queues/lookup";
import {
  changesSignIn,
  cloudAccountsOf,
  presentCloudAccount,
  saveCloudAccount,
  splitCloudFields,
} from "./cloud-account";
import { findConnection, queueIdsOfConnections } from "./lookup";
import type { ConnectionModel } from "./model";

/**
 * The call token and the Cloud API's secrets are integration secrets and a pending QR pairs a phone with the
 * connection: only admins see them, and the Cloud API's secrets never travel in events (`secrets` false).
 */
function present<T extends ConnectionRow>(
  row: T,
  profile: Role | null,
  account: CloudAccountRow | undefined,
  secrets = true,
) {
  const admin = !!profile && can(profile, "connections:manage");
  const cloud = row.provider === "cloud" ? presentCloudAccount(account, admin && secrets) : {};
  if (admin) return { ...row, ...cloud };
  const { wavoip: _secret, qrcode: _pairing, ...rest } = row;
  return { ...rest, ...cloud };
}

/** The queues each connection offers, in id order. */
async function queuesOf(db: Db, ids: number[]) {
  const linked = await queueIdsOfConnections(db, ids);
  const summaries = await queueSummaries(db, [...linked.values()].flat());
  const byConnection = new Map<number, QueueSummary[]>();
  for (const [whatsappId, queueIds] of linked)
    byConnection.set(
      whatsappId,
      summaries.filter((q) => queueIds.includes(q.id)),
    );
  return byConnection;
}

/** GET /whatsapp: every connection with its queues, in id order. */
export async function listConnections(db: Db, profile: Role): Promise<ConnectionDto[]> {
  const rows = await db.select().from(connections).orderBy(asc(connections.id));
  const ids = rows.map((r) => r.id);
  const byConnection = await queuesOf(db, ids);
  const accounts = await cloudAccountsOf(db, ids);
  return rows.map((row) => ({
    ...present(row, profile, accounts.get(row.id)),
    queues: byConnection.get(row.id) ?? [],
  }));
}

/** GET /whatsapp/:id: the connection with its queues and their first-level chatbot options. */
export async function showConnection(db: Db, id: number, profile: Role | null, secrets = true) {
  const row = await findConnection(db, id);
  if (!row) throw notFound("ERR_NO_WAPP_FOUND");
  const linked = (await queuesOf(db, [id])).get(id) ?? [];
  const options = await firstLevelOptions(
    db,
    linked.map((q) => q.id),
  );
  const account = (await cloudAccountsOf(db, [id])).get(id);
  return {
    ...present(row, profile, account, secrets),
    queues: linked.map((q) => ({
      ...q,
      chatbots: options
        .filter((o) => o.queueId === q.id)
        .map(({ id, name, greetingMessage }) => ({ id, name, greetingMessage })),
    })),
  };
}

async function validate(deps: AppDeps, input: ConnectionModel.Update, current?: ConnectionRow) {
  if (input.provider === "sandbox" && !deps.config.sandbox) throw new AppError("ERR_SANDBOX_DISABLED", 403);
  const name = input.name?.trim();
  if (name !== undefined) {
    const clash = await first(
      deps.db
        .select({ id: connections.id })
        .from(connections)
        .where(and(eq(connections.name, name), current ? ne(connections.id, current.id) : undefined)),
    );
    if (clash) throw new AppError("ERR_WAPP_NAME_ALREADY_EXISTS", 400);
  }
  if (input.queueIds) await assertQueuesExist(deps.db, input.queueIds);
  const queueCount = input.queueIds
    ? new Set(input.queueIds).size
    : current
      ? ((await queuesOf(deps.db, [current.id])).get(current.id)?.length ?? 0)
      : 0;
  const greeting = input.greetingMessage ?? current?.greetingMessage ?? "";
  if (queueCount > 1 && !greeting.trim()) throw new AppError("ERR_WAPP_GREETING_REQUIRED", 400);
}

function fieldsOf(input: ConnectionModel.Update) {
  const { queueIds: _queues, ...fields } = splitCloudFields(input).rest;
  return { ...fields, ...(fields.name !== undefined ? { name: fields.name.trim() } : {}) };
}

async function replaceQueues(tx: Writer, id: number, queueIds: number[] | undefined) {
  if (queueIds === undefined) return;
  await tx.delete(connectionQueues).where(eq(connectionQueues.whatsappId, id));
  const ids = [...new Set(queueIds)];
  if (ids.length) await tx.insert(connectionQueues).values(ids.map((queueId) => ({ whatsappId: id, queueId })));
}

/** Connection events go to admins only (they manage connections), so they carry what an admin reads but secrets. */
async function publishUpdate(deps: AppDeps, id: number) {
  deps.events.emit("connection.updated", { connection: await showConnection(deps.db, id, "admin", false) });
}

/** POST /whatsapp: the first connection becomes the default; the session starts right away. */
export async function createConnection(deps: AppDeps, input: ConnectionModel.Create) {
  await validate(deps, input);
  const isFirst = ((await first(deps.db.select({ n: count() }).from(connections)))?.n ?? 0) === 0;
  const isDefault = isFirst || input.isDefault === true;
  const { id, previousDefaults } = await atomically(deps.db, async (tx) => {
    const previousDefaults = isDefault
      ? await tx
          .update(connections)
          .set({ isDefault: false })
          .where(eq(connections.isDefault, true))
          .returning({ id: connections.id })
      : [];
    const row = await one(
      tx
        .insert(connections)
        .values({ ...fieldsOf(input), name: input.name.trim(), isDefault, status: "OPENING" })
        .returning({ id: connections.id }),
    );
    await replaceQueues(tx, row.id, input.queueIds);
    if (input.provider === "cloud") await saveCloudAccount(tx, row.id, splitCloudFields(input).cloud);
    return { id: row.id, previousDefaults };
  });
  for (const previous of previousDefaults) await publishUpdate(deps, previous.id);
  await publishUpdate(deps, id);
  Promise.resolve()
    .then(() => deps.channels.start(id))
    .catch((error) => deps.log.error("connection start failed", { connectionId: id, error }));
  return await showConnection(deps.db, id, "admin");
}

/** PUT /whatsapp/:id: every given field is written; `queueIds` absent leaves the queues alone. */
export async function updateConnection(deps: AppDeps, id: number, input: ConnectionModel.Update) {
  const current = await findConnection(deps.db, id);
  if (!current) throw notFound("ERR_NO_WAPP_FOUND");
  await validate(deps, input, current);
  const { cloud } = splitCloudFields(input);
  if (input.isDefault === false && current.isDefault) throw new AppError("ERR_NO_OTHER_WHATSAPP", 400);
  const previousDefaults = await atomically(deps.db, async (tx) => {
    const previous =
      input.isDefault === true && !current.isDefault
        ? await tx
            .update(connections)
            .set({ isDefault: false })
            .where(and(eq(connections.isDefault, true), ne(connections.id, id)))
            .returning({ id: connections.id })
        : [];
    const fields = fieldsOf(input);
    if (Object.keys(fields).length) await tx.update(connections).set(fields).where(eq(connections.id, id));
    await replaceQueues(tx, id, input.queueIds);
    if ((input.provider ?? current.provider) === "cloud") await saveCloudAccount(tx, id, cloud);
    return previous;
  });
  for (const previous of previousDefaults) await publishUpdate(deps, previous.id);
  await publishUpdate(deps, id);
  // New credentials are checked at once: the connection starts again with them.
  if ((input.provider ?? current.provider) === "cloud" && changesSignIn(cloud))
    await deps.channels
      .restart(id)
      .catch((error) => deps.log.warn("cloud connection restart failed", { connectionId: id, error }));
  return await showConnection(deps.db, id, "admin");
}

/** DELETE /whatsapp/:id: logs the session out, then removes the row (its phone book and credentials go with it). */
export async function deleteConnection(deps: AppDeps, id: number) {
  const current = await findConnection(deps.db, id);
  if (!current) throw notFound("ERR_NO_WAPP_FOUND");
  const total = (await first(deps.db.select({ n: count() }).from(connections)))?.n ?? 0;
  if (current.isDefault && total > 1) throw new AppError("ERR_NO_OTHER_WHATSAPP", 400);
  try {
    await deps.channels.disconnect(id);
  } catch (error) {
    deps.log.warn("connection logout failed before delete", { connectionId: id, error });
  }
  await deps.db.delete(connections).where(eq(connections.id, id));
  deps.events.emit("connection.deleted", { connectionId: id });
}

/** How many connections are in each status (monitoring). */
export async function countConnectionsByStatus(db: Db): Promise<{ status: string; count: number }[]> {
  return await db.select({ status: connections.status, count: count() }).from(connections).groupBy(connections.status);
}
