import { atomically, first } from "../../db/client";
import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { isOptedOut } from "../bulk/opt-out";
import { schedules, type ScheduleRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import { findOrCreateTicket } from "../tickets/find-or-create";
import { findContact } from "../contacts/lookup";
import { cancelUnsent } from "../messages/outbox";
import { settledSends } from "../messages/records";
import { sendTicketTextOrTemplate } from "../messages/send";
import { storedTemplate } from "../messages/templates";
import { defaultWhatsappId } from "../connections/default-connection";
import { findTicket } from "../tickets/records";
import { markTicketRead } from "../tickets/read-marking";
import { showSchedule } from "./service";
import { queueScheduleSend, withSendToCome } from "./send-job";

/** Attempts before a schedule is given up as ERRO. */
export const SCHEDULE_MAX_ATTEMPTS = 3;
/** Delay before attempt n+1: base · 2^(n-1). */
export const SCHEDULE_RETRY_BASE_MS = 30_000;

async function publish(deps: AppDeps, id: number) {
  deps.events.emit("schedule.updated", { schedule: await showSchedule(deps.db, id) });
}

/**
 * Follows schedules whose message waited in the outbox (the connection was down when it was written): sent ones
 * become ENVIADA, failed ones count as a failed attempt. With `messageId`, only the schedule of that message.
 */
export async function settleWaitingSchedules(deps: AppDeps, messageId?: number) {
  const waiting = await deps.db
    .select({ id: schedules.id, messageId: schedules.messageId })
    .from(schedules)
    .where(
      and(
        eq(schedules.status, "AGENDADA"),
        messageId === undefined ? isNotNull(schedules.messageId) : eq(schedules.messageId, messageId),
      ),
    );
  const settled = await settledSends(
    deps.db,
    waiting.map((row) => row.messageId!),
  );
  for (const row of waiting) {
    const message = settled.get(row.messageId!);
    if (message?.sendState === "sent") await markSent(deps, row.id, row.messageId!);
    else if (message) await failAttempt(deps, row.id, row.messageId, message.sendError ?? "ERR_SENDING_WAPP_MSG");
  }
  if (messageId === undefined) await withdrawOrphans(deps);
}

/**
 * An AGENDADA schedule always has its message or a send job to come. One with neither lost its waiting message
 * (cancelled in the chat): it is not written again, it ends ERRO.
 */
export async function withdrawOrphans(deps: AppDeps) {
  const now = new Date(deps.clock.now());
  const orphans = await atomically(deps.db, async (tx) => {
    const unsent = (
      await tx
        .select({ id: schedules.id })
        .from(schedules)
        .where(and(eq(schedules.status, "AGENDADA"), isNull(schedules.messageId)))
    ).map((r) => r.id);
    if (!unsent.length) return [];
    const toCome = await withSendToCome(tx, unsent);
    const lost = unsent.filter((id) => !toCome.has(id));
    if (!lost.length) return [];
    return await tx
      .update(schedules)
      .set({ status: "ERRO", lastError: "ERR_SCHEDULE_MESSAGE_CANCELLED", updatedAt: now })
      .where(and(inArray(schedules.id, lost), eq(schedules.status, "AGENDADA"), isNull(schedules.messageId)))
      .returning({ id: schedules.id });
  });
  for (const { id } of orphans) await publish(deps, id);
}

/** PENDENTE schedules without a send job (imported, or from before each had one) get theirs, at their `sendAt`. */
export async function queueMissingSends(deps: AppDeps) {
  const waiting = await deps.db
    .select({ id: schedules.id, sendAt: schedules.sendAt })
    .from(schedules)
    .where(and(eq(schedules.status, "PENDENTE"), isNull(schedules.sentAt)));
  if (!waiting.length) return;
  const toCome = await withSendToCome(
    deps.db,
    waiting.map((w) => w.id),
  );
  for (const { id, sendAt } of waiting) if (!toCome.has(id)) await queueScheduleSend(deps, id, sendAt.getTime());
}

async function markSent(deps: AppDeps, id: number, messageId: number) {
  const now = new Date(deps.clock.now());
  const row = await atomically(
    deps.db,
    async (tx) =>
      await first(
        tx
          .update(schedules)
          .set({ status: "ENVIADA", sentAt: now, lastError: null, updatedAt: now })
          .where(and(eq(schedules.id, id), eq(schedules.status, "AGENDADA"), eq(schedules.messageId, messageId)))
          .returning(),
      ),
  );
  if (row) await publish(deps, id);
}

/**
 * One attempt failed with `reason`: its unsent message leaves the chat, and the schedule is tried again after a
 * backoff, or becomes ERRO after the last attempt. Only the holder of `messageId` (null: none stored) counts it.
 */
async function failAttempt(deps: AppDeps, id: number, messageId: number | null, reason: string) {
  const now = deps.clock.now();
  const row = await atomically(deps.db, async (tx) => {
    const current = await first(
      tx
        .select()
        .from(schedules)
        .where(
          and(
            eq(schedules.id, id),
            eq(schedules.status, "AGENDADA"),
            messageId == null ? isNull(schedules.messageId) : eq(schedules.messageId, messageId),
          ),
        ),
    );
    if (!current) return undefined;
    const attempts = current.attempts + 1;
    const giveUp = attempts >= SCHEDULE_MAX_ATTEMPTS;
    // Counted only if no one counted it meanwhile: on PostgreSQL two reports of one failure can read the row at
    // once, and the second update, waiting for the first, then finds the attempt already counted.
    const updated = await first(
      tx
        .update(schedules)
        .set({
          attempts,
          lastError: reason.slice(0, 500),
          messageId: null,
          updatedAt: new Date(now),
          ...(giveUp ? { status: "ERRO" as const } : {}),
        })
        .where(and(eq(schedules.id, id), eq(schedules.status, "AGENDADA"), eq(schedules.attempts, current.attempts)))
        .returning(),
    );
    if (!updated) return undefined;
    if (!giveUp) await queueScheduleSend(deps, id, now + SCHEDULE_RETRY_BASE_MS * 2 ** (attempts - 1));
    return updated;
  });
  if (!row) return;
  if (messageId != null) await cancelUnsent(deps, messageId);
  deps.log.warn("scheduled message not sent", {
    scheduleId: id,
    attempt: row.attempts,
    error: reason,
    status: row.status,
  });
  await publish(deps, id);
}

/** Ends an AGENDADA schedule that must not be sent at all as ERRO with `reason`. */
async function giveUp(deps: AppDeps, id: number, reason: string) {
  const now = new Date(deps.clock.now());
  const row = await atomically(
    deps.db,
    async (tx) =>
      await first(
        tx
          .update(schedules)
          .set({ status: "ERRO", lastError: reason, updatedAt: now })
          .where(and(eq(schedules.id, id), eq(schedules.status, "AGENDADA"), isNull(schedules.messageId)))
          .returning(),
      ),
  );
  if (row) await publish(deps, id);
}

/** Who a schedule goes to and on which connection: its ticket's connection, else the user's or the default one. */
async function targetOf(deps: AppDeps, schedule: ScheduleRow) {
  const contact = await findContact(deps.db, schedule.contactId);
  if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
  const own = schedule.ticketId != null ? await findTicket(deps.db, schedule.ticketId) : undefined;
  return { contact, whatsappId: own?.whatsappId ?? (await defaultWhatsappId(deps.db, schedule.userId)) };
}

/** The ticket a schedule goes out on: found or created for its contact on its connection (see targetOf). */
async function ticketFor(deps: AppDeps, { contact, whatsappId }: Awaited<ReturnType<typeof targetOf>>) {
  const { ticket } = await findOrCreateTicket(deps, {
    contactId: contact.id,
    whatsappId,
    isGroup: contact.isGroup,
    cause: "schedule",
  });
  await markTicketRead(deps, ticket);
  return ticket;
}

/**
 * The schedule to send now: a due PENDENTE one becomes AGENDADA (and everyone is told), an AGENDADA one is
 * tried again. Undefined when it is gone, sent, ERRO, or not due yet (its job is moved to its `sendAt`).
 */
async function pick(deps: AppDeps, scheduleId: number): Promise<ScheduleRow | undefined> {
  const schedule = await first(deps.db.select().from(schedules).where(eq(schedules.id, scheduleId)));
  if (!schedule || schedule.sentAt) return undefined;
  if (schedule.status === "AGENDADA") return schedule;
  if (schedule.status !== "PENDENTE") return undefined;
  const now = deps.clock.now();
  const sendAt = schedule.sendAt.getTime();
  if (sendAt > now) return void (await queueScheduleSend(deps, scheduleId, sendAt));
  const picked = await first(
    deps.db
      .update(schedules)
      .set({ status: "AGENDADA", lastError: null, messageId: null, updatedAt: new Date(now) })
      .where(and(eq(schedules.id, scheduleId), eq(schedules.status, "PENDENTE")))
      .returning(),
  );
  if (picked) await publish(deps, scheduleId);
  return picked;
}

/**
 * The schedule's send job: one send attempt of the schedule (picked when due), through the ticket send path so
 * the message is stored in the ticket's history and shown live. Safe to run again: a message already stored for
 * the schedule is followed, never written twice. A message that waits for its connection is left to the outbox
 * (see settleWaitingSchedules).
 */
export async function sendSchedule(deps: AppDeps, scheduleId: number): Promise<void> {
  const schedule = await pick(deps, scheduleId);
  if (!schedule) return;
  if (schedule.messageId != null) return await settleWaitingSchedules(deps, schedule.messageId);
  let message: Awaited<ReturnType<typeof sendTicketTextOrTemplate>>;
  try {
    const target = await targetOf(deps, schedule);
    // A contact who opted out of this connection's messages is not written to by a schedule either.
    if (target.contact.number && (await isOptedOut(deps.db, target.whatsappId, target.contact.number)))
      return await giveUp(deps, scheduleId, "ERR_CONTACT_OPTED_OUT");
    const ticket = await ticketFor(deps, target);
    message = await sendTicketTextOrTemplate(deps, ticket, schedule.body, storedTemplate(schedule.template), {
      userId: schedule.userId,
      onStored: async (stored) => {
        const held = await atomically(
          deps.db,
          async (tx) =>
            await first(
              tx
                .update(schedules)
                .set({ messageId: stored.id })
                .where(and(eq(schedules.id, scheduleId), eq(schedules.status, "AGENDADA"), isNull(schedules.messageId)))
                .returning({ id: schedules.id }),
            ),
        );
        // Another run of this schedule stored its message first: this copy is withdrawn before it can go out.
        if (!held) await cancelUnsent(deps, stored.id);
      },
    });
  } catch (error) {
    const stored = await first(
      deps.db.select({ messageId: schedules.messageId }).from(schedules).where(eq(schedules.id, scheduleId)),
    );
    await failAttempt(
      deps,
      scheduleId,
      stored?.messageId ?? null,
      error instanceof AppError ? error.code : error instanceof Error ? error.message : String(error),
    );
    return;
  }
  if (message.sendState === "sent") await markSent(deps, scheduleId, message.id);
  else if (message.sendState === "failed")
    await failAttempt(deps, scheduleId, message.id, message.sendError ?? "ERR_SENDING_WAPP_MSG");
}
