import { count, desc, eq, inArray, notInArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { massMessages, whatsapps } from "../../db/schema";
import type { AppDeps } from "../../deps";
import { AppError, FieldError, notFound } from "../../errors";
import { contains, hasMore, normalizeSearch, pageWindow } from "../../db/paging";
import { ensureBulkJob } from "./worker";

export interface BulkItem {
  message: string;
  phone: string;
  whatsappId: number;
}

/** POST /bulkMessage: stores one pending record per distinct item, after checking phones and connections. */
export function storeBulk(deps: AppDeps, items: BulkItem[]) {
  items.forEach((item, i) => {
    if (!/^\d{8,15}$/.test(item.phone.trim())) throw new FieldError(`${i}.phone`, "Número inválido");
  });
  const connectionIds = [...new Set(items.map((i) => i.whatsappId))];
  const known = connectionIds.length
    ? deps.db.select({ id: whatsapps.id }).from(whatsapps).where(inArray(whatsapps.id, connectionIds)).all()
    : [];
  if (known.length !== connectionIds.length) throw new AppError("ERR_NO_WAPP_FOUND", 400);
  const seen = new Set<string>();
  const unique = items.filter((item) => {
    const key = JSON.stringify([item.message, item.phone.trim(), item.whatsappId]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const records = unique.length
    ? deps.db.transaction((tx) =>
        tx
          .insert(massMessages)
          .values(
            unique.map((i) => ({
              message: i.message,
              phone: i.phone.trim(),
              whatsappId: i.whatsappId,
              status: "pending",
            })),
          )
          .returning()
          .all(),
      )
    : [];
  if (records.length) ensureBulkJob(deps);
  for (const record of records) deps.events.emit("bulk.created", { record });
  return { created: records.length, skippedDuplicates: items.length - unique.length, ids: records.map((r) => r.id) };
}

/** The shipping report: newest first, searched by phone, with the connection's name and number. */
export function listReport(db: Db, opts: { searchParam?: string; pageNumber?: number }) {
  const search = normalizeSearch(opts.searchParam);
  const where = search ? contains(massMessages.phone, search) : undefined;
  const { limit, offset } = pageWindow(opts.pageNumber);
  const rows = db
    .select({ record: massMessages, whatsapp: { id: whatsapps.id, name: whatsapps.name, number: whatsapps.number } })
    .from(massMessages)
    .leftJoin(whatsapps, eq(whatsapps.id, massMessages.whatsappId))
    .where(where)
    .orderBy(desc(massMessages.createdAt), desc(massMessages.id))
    .limit(limit)
    .offset(offset)
    .all();
  const total = db.select({ n: count() }).from(massMessages).where(where).get()?.n ?? 0;
  const messages = rows.map((r) => ({ ...r.record, whatsapp: r.whatsapp }));
  return { messages, count: total, hasMore: hasMore(total, offset, rows.length) };
}

export function deleteRecord(deps: AppDeps, id: number) {
  const row = deps.db.delete(massMessages).where(eq(massMessages.id, id)).returning({ id: massMessages.id }).get();
  if (!row) throw notFound("ERR_NO_MASS_MESSAGE_FOUND");
  deps.events.emit("bulk.deleted", { id });
}

/** DELETE /bulkMessage/clean: removes finished records only; pending ones still have to be sent. */
export function cleanFinished(deps: AppDeps) {
  const removed = deps.db
    .delete(massMessages)
    .where(notInArray(massMessages.status, ["pending", "sending"]))
    .returning({ id: massMessages.id })
    .all();
  for (const { id } of removed) deps.events.emit("bulk.deleted", { id });
  return removed.length;
}
