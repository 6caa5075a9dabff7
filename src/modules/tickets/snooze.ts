import { instantField } from "../../http/instant-field";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { atomically, first, type Writer } from "../../db/client";
import { type TicketEventRow, type TicketRow, tickets } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { FieldError, forbidden, notFound } from "../../errors";
import { cancel, enqueue } from "../../jobs/store";
import type { AuthUser } from "../../shared/auth-user";
import type { TicketEventCause } from "../../shared/contracts/ticket-events";
import { isAdmin } from "../../shared/permissions";
import { recordTicketEvent } from "./history";
import { announceTicketEvents } from "./history-dtos";
import { findTicket } from "./records";
import { loadTicketDto, type TicketDto } from "./serialize";

/** The job that wakes a snoozed ticket when its time comes, one per ticket (`snoozeKey`). */
export const WAKE_JOB = "ticket-wake";

const snoozeKey = (ticketId: number) => `snooze:${ticketId}`;

/**
 * POST /tickets/:id/snooze: the assignee or an admin parks an open or waiting ticket until `until` (ISO, in the
 * future). It leaves the In service and Waiting lists; its wake-up is a job keyed per ticket, written in the same
 * transaction, so it survives a restart and a second snooze replaces it.
 */
export async function snoozeTicket(deps: AppDeps, actor: AuthUser, ticketId: number, until: string) {
  const ticket = await snoozableBy(deps, actor, ticketId);
  const at = instantField("until", until);
  const now = deps.clock.now();
  if (at <= now) throw new FieldError("until", "future");
  if (ticket.status === "closed") throw new FieldError("status", "invalid");
  const event = await atomically(deps.db, async (tx) => {
    await setSnooze(tx, ticket.id, new Date(at));
    await enqueue(tx, WAKE_JOB, { ticketId: ticket.id }, now, { key: snoozeKey(ticket.id), replace: true, runAt: at });
    return await recordSnoozeEvent(tx, ticket, "snoozed", "agent", actor.id, now);
  });
  return await announce(deps, ticket, event);
}

/** DELETE /tickets/:id/snooze: the assignee or an admin brings a snoozed ticket back before its time. */
export async function unsnoozeTicket(deps: AppDeps, actor: AuthUser, ticketId: number): Promise<TicketDto> {
  await snoozableBy(deps, actor, ticketId);
  return (await wakeTicket(deps, ticketId, "agent", actor.id)) ?? (await loadTicketDto(deps.db, ticketId));
}

/**
 * Brings a snoozed ticket back to its lists (its time came, the customer wrote, someone unsnoozed it): records
 * `woken`, drops its wake-up job, and tells its agent. Nothing happens to a ticket that is not snoozed. Inside a
 * caller's transaction (an inbound message's) it joins it, and its events wait for that commit.
 */
export async function wakeTicket(
  deps: AppDeps,
  ticketId: number,
  cause: TicketEventCause,
  actorUserId: number | null = null,
): Promise<TicketDto | undefined> {
  const now = deps.clock.now();
  const woken = await atomically(deps.db, async (tx) => {
    const ticket = await first(
      tx
        .update(tickets)
        .set({ snoozedUntil: null, updatedAt: sql`${tickets.updatedAt}` })
        .where(and(eq(tickets.id, ticketId), isNotNull(tickets.snoozedUntil)))
        .returning(),
    );
    if (!ticket) return undefined;
    await cancel(tx, snoozeKey(ticketId));
    return { ticket, event: await recordSnoozeEvent(tx, ticket, "woken", cause, actorUserId, now) };
  });
  if (!woken) return undefined;
  return await announce(deps, woken.ticket, woken.event);
}

/** A resolved ticket is snoozed no more: its wake-up goes, in the transaction that resolves it. */
export async function dropSnooze(tx: Writer, ticketId: number) {
  await cancel(tx, snoozeKey(ticketId));
}

/** The ticket, when `actor` holds it or is an admin (404 when missing, 403 otherwise). */
async function snoozableBy(deps: AppDeps, actor: AuthUser, ticketId: number): Promise<TicketRow> {
  const ticket = await findTicket(deps.db, ticketId);
  if (!ticket) throw notFound("ERR_NO_TICKET_FOUND");
  if (!isAdmin(actor.profile) && ticket.userId !== actor.id) throw forbidden();
  return ticket;
}

/** The wake-up job's handler: wakes the ticket if it is still snoozed until then or earlier. */
export function handleWakeJobs(deps: AppDeps) {
  deps.jobs.handle(WAKE_JOB, async (payload: { ticketId: number }) => {
    const ticket = await first(deps.db.select().from(tickets).where(eq(tickets.id, payload.ticketId)));
    if (!ticket?.snoozedUntil || ticket.snoozedUntil.getTime() > deps.clock.now()) return;
    await wakeTicket(deps, ticket.id, "system");
  });
}

async function setSnooze(tx: Writer, ticketId: number, until: Date) {
  // Parking is not activity: the ticket keeps its place and time in the lists it comes back to.
  await tx
    .update(tickets)
    .set({ snoozedUntil: until, updatedAt: sql`${tickets.updatedAt}` })
    .where(eq(tickets.id, ticketId));
}

async function recordSnoozeEvent(
  tx: Writer,
  ticket: TicketRow,
  kind: "snoozed" | "woken",
  cause: TicketEventCause,
  actorUserId: number | null,
  now: number,
) {
  return await recordTicketEvent(tx, {
    ticketId: ticket.id,
    kind,
    cause,
    at: new Date(now),
    actorUserId,
    before: ticket,
    after: ticket,
  });
}

async function announce(deps: AppDeps, ticket: TicketRow, event: TicketEventRow): Promise<TicketDto> {
  const dto = await loadTicketDto(deps.db, ticket.id);
  deps.events.emit("ticket.updated", { ticket: dto });
  await announceTicketEvents(deps, [event]);
  // Its agent is told when it came back by itself or by the customer, not when a person brought it back.
  if (event.kind === "woken" && event.cause !== "agent" && dto.userId != null)
    deps.events.emit("ticket.woken", { ticket: dto, userId: dto.userId });
  return dto;
}
