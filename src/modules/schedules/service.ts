import { atomically, type Db, first, one } from "../../db/client";
import { and, count, desc, eq, or, type SQL } from "drizzle-orm";
import { contacts, schedules, type ScheduleRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, FieldError, forbidden, notFound } from "../../errors";
import { isWithinDateBounds } from "../../shared/date-bounds";
import type { ScheduleDto } from "../../shared/contracts/schedules";
import { can } from "../../shared/permissions";
import type { AuthUser } from "../../shared/auth-user";
import { contains, hasMore, normalizeSearch, pageWindow } from "../../db/paging";
import { contactExists, contactSummaries } from "../contacts/lookup";
import { findTicket } from "../tickets/records";
import { offsetAt } from "../tickets/day-range";
import type { TemplateMessage } from "../../shared/contracts/templates";
import { defaultWhatsappId } from "../connections/default-connection";
import { checkTemplatesAhead, storedTemplate } from "../messages/templates";
import { userNames } from "../users/lookup";

import type { ScheduleModel } from "./model";
import { cancelScheduleSend, queueScheduleSend } from "./send-job";

/** Schedules with their contact and user `{id, name}`, loaded in two queries. */
async function withRelations(db: Db, rows: ScheduleRow[]): Promise<ScheduleDto[]> {
  if (!rows.length) return [];
  const contactById = new Map(
    (
      await contactSummaries(
        db,
        rows.map((r) => r.contactId),
      )
    ).map(({ id, name, number }) => [id, { id, name, number }]),
  );
  const userById = new Map(
    (
      await userNames(
        db,
        rows.map((r) => r.userId).filter((v): v is number => v != null),
      )
    ).map((u) => [u.id, u]),
  );
  return rows.map((row) => ({
    ...row,
    template: storedTemplate(row.template) ?? null,
    contact: contactById.get(row.contactId) ?? null,
    user: row.userId ? (userById.get(row.userId) ?? null) : null,
  }));
}

/** One page of schedules, newest first, searched by body or contact name, optionally for one contact or user. */
export async function listSchedules(db: Db, opts: ScheduleModel.List) {
  const search = normalizeSearch(opts.searchParam);
  const conditions: (SQL | undefined)[] = [
    search ? or(contains(schedules.body, search), contains(contacts.name, search)) : undefined,
    opts.contactId ? eq(schedules.contactId, opts.contactId) : undefined,
    opts.userId ? eq(schedules.userId, opts.userId) : undefined,
  ];
  const where = and(...conditions);
  const { limit, offset } = pageWindow(opts.pageNumber);
  const rows = (
    await db
      .select({ schedule: schedules })
      .from(schedules)
      .innerJoin(contacts, eq(contacts.id, schedules.contactId))
      .where(where)
      .orderBy(desc(schedules.createdAt), desc(schedules.id))
      .limit(limit)
      .offset(offset)
  ).map((r) => r.schedule);
  const total =
    (
      await first(
        db
          .select({ n: count() })
          .from(schedules)
          .innerJoin(contacts, eq(contacts.id, schedules.contactId))
          .where(where),
      )
    )?.n ?? 0;
  return { schedules: await withRelations(db, rows), count: total, hasMore: hasMore(total, offset, rows.length) };
}

export async function showSchedule(db: Db, id: number) {
  const row = await first(db.select().from(schedules).where(eq(schedules.id, id)));
  if (!row) throw notFound("ERR_NO_SCHEDULE_FOUND");
  return (await withRelations(db, [row]))[0]!;
}

const NAIVE_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/**
 * The client sends `YYYY-MM-DDTHH:mm` without a zone (its datetime-local input): that is wall-clock time in
 * the configured time zone. Values with a zone or offset are taken as they are.
 */
function parseSendAt(value: string, timeZone: string): Date {
  const trimmed = value.trim();
  if (NAIVE_LOCAL.test(trimmed)) {
    const asUtc = new Date(`${trimmed}Z`);
    if (isWithinDateBounds(asUtc.getTime())) return new Date(asUtc.getTime() - offsetAt(asUtc.getTime(), timeZone));
  }
  const date = new Date(trimmed);
  if (!isWithinDateBounds(date.getTime())) throw new FieldError("sendAt", "date");
  return date;
}

async function assertContact(db: Db, contactId: number) {
  if (!(await contactExists(db, contactId))) throw new AppError("ERR_NO_CONTACT_FOUND", 400);
}

/** A schedule written from a chat goes out on that chat's connection: the ticket must be the contact's. */
async function assertTicketOf(db: Db, ticketId: number, contactId: number) {
  const ticket = await findTicket(db, ticketId);
  if (!ticket || ticket.contactId !== contactId) throw new AppError("ERR_NO_TICKET_FOUND", 400);
}

/** A schedule's template, checked against the connection it is to go out on when that one can tell now. */
async function checkTemplate(
  deps: AppDeps,
  template: TemplateMessage | null | undefined,
  ticketId: number | null | undefined,
  userId: number | null,
) {
  if (!template) return;
  const ticket = ticketId != null ? await findTicket(deps.db, ticketId) : undefined;
  const connectionId = ticket?.whatsappId ?? (await defaultWhatsappId(deps.db, userId).catch(() => undefined));
  if (connectionId != null) await checkTemplatesAhead(deps, [{ connectionId, template, field: "template" }]);
}

/** POST /schedules: a PENDENTE schedule for an existing contact, due in the future, owned by the caller. */
export async function createSchedule(deps: AppDeps, actor: AuthUser, input: ScheduleModel.Create) {
  const sendAt = parseSendAt(input.sendAt, deps.config.timeZone);
  if (sendAt.getTime() <= deps.clock.now()) throw new FieldError("sendAt", "future");
  await assertContact(deps.db, input.contactId);
  if (input.ticketId != null) await assertTicketOf(deps.db, input.ticketId, input.contactId);
  await checkTemplate(deps, input.template, input.ticketId, actor.id);
  const row = await atomically(deps.db, async (tx) => {
    const created = await one(
      tx
        .insert(schedules)
        .values({
          body: input.body,
          contactId: input.contactId,
          ticketId: input.ticketId ?? null,
          template: input.template ? JSON.stringify(input.template) : null,
          sendAt,
          userId: actor.id,
          status: "PENDENTE",
        })
        .returning(),
    );
    await queueScheduleSend(deps, created.id, sendAt.getTime());
    return created;
  });
  const schedule = (await withRelations(deps.db, [row]))[0]!;
  deps.events.emit("schedule.created", { schedule });
  return schedule;
}

/** A schedule is changed by whoever created it, or with `schedules:editAny` (admins). */
function assertMayChange(actor: AuthUser, schedule: { userId: number | null }) {
  if (schedule.userId !== actor.id && !can(actor.profile, "schedules:editAny")) throw forbidden();
}

/** PUT /schedules/:id by its creator or an admin; sent ones are frozen, failed ones go back to PENDENTE. */
export async function updateSchedule(deps: AppDeps, actor: AuthUser, id: number, input: ScheduleModel.Update) {
  const current = await showSchedule(deps.db, id);
  assertMayChange(actor, current);
  if (current.sentAt) throw new AppError("ERR_SCHEDULE_ALREADY_SENT", 400);
  if (input.contactId !== undefined) await assertContact(deps.db, input.contactId);
  await checkTemplate(deps, input.template, current.ticketId, current.userId);
  const row = await atomically(deps.db, async (tx) => {
    const updated = await one(
      tx
        .update(schedules)
        .set({
          ...(input.body !== undefined ? { body: input.body } : {}),
          ...(input.contactId !== undefined ? { contactId: input.contactId } : {}),
          ...(input.template !== undefined ? { template: input.template && JSON.stringify(input.template) } : {}),
          ...(input.sendAt !== undefined ? { sendAt: parseSendAt(input.sendAt, deps.config.timeZone) } : {}),
          ...(current.status === "ERRO" ? { status: "PENDENTE" as const, attempts: 0, lastError: null } : {}),
          updatedAt: new Date(),
        })
        .where(eq(schedules.id, id))
        .returning(),
    );
    // A schedule still to be picked goes at its (new) time; one being sent goes on with its attempts.
    if (updated.status === "PENDENTE") await queueScheduleSend(deps, id, updated.sendAt.getTime());
    return updated;
  });
  const schedule = (await withRelations(deps.db, [row]))[0]!;
  deps.events.emit("schedule.updated", { schedule });
  return schedule;
}

/** DELETE /schedules/:id by its creator or an admin. */
export async function deleteSchedule(deps: AppDeps, actor: AuthUser, id: number) {
  assertMayChange(actor, await showSchedule(deps.db, id));
  await atomically(deps.db, async (tx) => {
    await tx.delete(schedules).where(eq(schedules.id, id));
    await cancelScheduleSend(tx, id);
  });
  deps.events.emit("schedule.deleted", { scheduleId: id });
}
