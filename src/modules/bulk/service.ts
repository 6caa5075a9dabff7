import { atomically, type Db, first } from "../../db/client";
import { count, desc, eq } from "drizzle-orm";
import { massMessages } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, FieldError, notFound } from "../../errors";
import { contains, hasMore, normalizeSearch, pageWindow } from "../../db/paging";
import { allConnectionsExist, connectionSummaries } from "../connections/lookup";
import { checkTemplatesAhead } from "../messages/templates";
import { cancelRecipients, enqueueRecipients } from "./recipients";
import type { BulkModel } from "./model";

/** POST /bulkMessage: stores one pending record per distinct item, after checking phones and connections. */
export async function storeBulk(deps: AppDeps, items: BulkModel.Item[]) {
  items.forEach((item, i) => {
    if (!/^\d{8,15}$/.test(item.phone.trim())) throw new FieldError(`${i}.phone`, "phone");
  });
  if (
    !(await allConnectionsExist(
      deps.db,
      items.map((i) => i.whatsappId),
    ))
  )
    throw new AppError("ERR_NO_WAPP_FOUND", 400);
  await checkTemplatesAhead(
    deps,
    items.flatMap((item, i) =>
      item.template ? [{ connectionId: item.whatsappId, template: item.template, field: `${i}.template` }] : [],
    ),
  );
  const seen = new Set<string>();
  const unique = items.filter((item) => {
    const key = JSON.stringify([item.message, item.phone.trim(), item.whatsappId, item.template ?? null]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const records = unique.length
    ? await atomically(deps.db, async (tx) => {
        const stored = await tx
          .insert(massMessages)
          .values(
            unique.map((i) => ({
              message: i.message,
              phone: i.phone.trim(),
              whatsappId: i.whatsappId,
              template: i.template ? JSON.stringify(i.template) : null,
              status: "pending",
            })),
          )
          .returning();
        await enqueueRecipients(tx, stored, deps.clock.now());
        return stored;
      })
    : [];
  for (const record of records) deps.events.emit("bulk.created", { record });
  return { created: records.length, skippedDuplicates: items.length - unique.length, ids: records.map((r) => r.id) };
}

/** The shipping report: newest first, searched by phone, with the connection's name and number. */
export async function listReport(db: Db, opts: BulkModel.List) {
  const search = normalizeSearch(opts.searchParam);
  const where = search ? contains(massMessages.phone, search) : undefined;
  const { limit, offset } = pageWindow(opts.pageNumber);
  const rows = await db
    .select()
    .from(massMessages)
    .where(where)
    .orderBy(desc(massMessages.createdAt), desc(massMessages.id))
    .limit(limit)
    .offset(offset);
  const total = (await first(db.select({ n: count() }).from(massMessages).where(where)))?.n ?? 0;
  const connections = new Map(
    (
      await connectionSummaries(
        db,
        rows.map((r) => r.whatsappId).filter((v): v is number => v != null),
      )
    ).map(({ id, name, number }) => [id, { id, name, number }]),
  );
  const messages = rows.map((r) => ({
    ...r,
    whatsapp: (r.whatsappId != null && connections.get(r.whatsappId)) || null,
  }));
  return { messages, count: total, hasMore: hasMore(total, offset, rows.length) };
}

/** DELETE /bulkMessage/d/:id: the record, and its send if it has not started. */
export async function deleteRecord(deps: AppDeps, id: number) {
  const row = await atomically(deps.db, async (tx) => {
    const deleted = await first(
      tx.delete(massMessages).where(eq(massMessages.id, id)).returning({ id: massMessages.id }),
    );
    if (deleted) await cancelRecipients(tx, [deleted.id]);
    return deleted;
  });
  if (!row) throw notFound("ERR_NO_MASS_MESSAGE_FOUND");
  deps.events.emit("bulk.deleted", { id });
}

/**
 * DELETE /bulkMessage/clean ("Limpar base"): removes every record, pending ones too, so what waited is not sent.
 * A record being sent keeps its message, which goes out; its send lets the deleted record go.
 */
export async function cleanReport(deps: AppDeps) {
  const removed = await atomically(deps.db, async (tx) => {
    const deleted = await tx.delete(massMessages).returning({ id: massMessages.id });
    await cancelRecipients(
      tx,
      deleted.map((r) => r.id),
    );
    return deleted;
  });
  for (const { id } of removed.sort((a, b) => a.id - b.id)) deps.events.emit("bulk.deleted", { id });
  return removed.length;
}
