import { atomically, type Db, first, one } from "../../db/client";
import { and, eq, inArray, isNull, ne } from "drizzle-orm";
import { ticketDialogs, type TicketEventRow, ticketTags, tickets, type TicketRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, FieldError, forbidden, notFound } from "../../errors";
import type { TicketEventCause } from "../../shared/contracts/ticket-events";
import { TICKET_STATUSES, type TicketStatus } from "../../shared/contracts/tickets";
import { can, isAdmin } from "../../shared/permissions";
import { findConnection, connectionExists } from "../connections/lookup";
import { findContact } from "../contacts/lookup";
import { removeMediaFiles } from "../media/files";
import { mediaFilesOfTickets } from "../messages/records";
import { sendTicketText } from "../messages/send";
import { queueExists } from "../queues/lookup";
import { allTagsExist } from "../tags/lookup";
import { findUserById } from "../users/lookup";
import type { AuthUser } from "../../shared/auth-user";
import { canSeeTicket } from "./access";
import { askForRating } from "./csat";
import { dropSnooze } from "./snooze";
import { defaultWhatsappId } from "../connections/default-connection";
import { kindOfChange, recordCreation, recordTicketEvent } from "./history";
import { announceTicketEvents } from "./history-dtos";
import { assignAfterChange, assignWaiting, isWaiting } from "./assignment";
import { markTicketRead } from "./read-marking";
import { findTicket, lockContactTickets } from "./records";
import { newEpisode, resolutionMs } from "./response-clock";
import { loadTicketDto, type TicketDto, toTicketDtos } from "./serialize";
import type { TicketModel } from "./model";

/** A ticket's changes, as the route takes them (internal callers use the same shape). */
export type TicketChanges = TicketModel.Update;

export interface ApplyOptions {
  /** Who acts; null = the system or the bot (no permission checks, unread untouched unless markRead). */
  actor: AuthUser | null;
  /** Mark the ticket read; defaults to true for people, false for the system. */
  markRead?: boolean;
  /** Send the connection's farewell on the transition into closed (default true). */
  farewell?: boolean;
  /** The state the caller decided on: when the ticket is no longer in it, nothing changes (`TicketMovedOn`). */
  proceedIf?: (current: TicketRow) => boolean;
  /** What the history says made the change; defaults to `agent` for people, `system` otherwise. */
  cause?: TicketEventCause;
  /** The chatbot's own: whether the ticket stays in its hands, written with the change. */
  isBot?: boolean;
}

const ACTIVE: TicketStatus[] = ["open", "pending"];

/** Loads a ticket row or throws 404 ERR_NO_TICKET_FOUND. */
export async function getTicketRow(deps: Pick<AppDeps, "db">, id: number): Promise<TicketRow> {
  const row = await findTicket(deps.db, id);
  if (!row) throw notFound("ERR_NO_TICKET_FOUND");
  return row;
}

/** The contact's open or pending ticket on a connection other than `exceptId`, if any. */
export async function otherActiveTicket(
  db: Pick<Db, "select">,
  contactId: number,
  connectionId: number | null,
  exceptId?: number,
) {
  return await first(
    db
      .select({ id: tickets.id })
      .from(tickets)
      .where(
        and(
          eq(tickets.contactId, contactId),
          connectionId == null ? undefined : eq(tickets.whatsappId, connectionId),
          inArray(tickets.status, ACTIVE),
          exceptId != null ? ne(tickets.id, exceptId) : undefined,
        ),
      ),
  );
}

function otherOpenError(actor: AuthUser | null, ticketId: number) {
  return new AppError("ERR_OTHER_OPEN_TICKET", 400, actor && isAdmin(actor.profile) ? { ticketId } : undefined);
}

/**
 * Accept, return, close, reopen and transfer: validates the change, enforces one
 * active ticket per contact and connection, writes it, clears the bot dialog when a person takes over or the
 * ticket closes, publishes the events, then sends the farewell (only on the transition into closed) or the
 * transfer message (only for transfers made by a person: a bot queue choice sends the queue greeting instead).
 * Those sends never fail the change: their failure is logged.
 *
 * The change is decided on the ticket as read, and written only if the ticket is still so: when someone else
 * changed it meanwhile (two agents closing it at once, a message arriving), it is decided again on the new
 * state, so a second close changes nothing and sends no second farewell.
 */
export async function applyTicketChanges(
  deps: AppDeps,
  ticketId: number,
  changes: TicketChanges,
  opts: ApplyOptions,
): Promise<TicketDto> {
  if (changes.status !== undefined && !TICKET_STATUSES.includes(changes.status as TicketStatus))
    throw new FieldError("status", "invalid");
  for (let attempt = 1; ; attempt++) {
    const before = await getTicketRow(deps, ticketId);
    if (opts.proceedIf && !opts.proceedIf(before)) throw new TicketMovedOn(ticketId);
    const plan = await planChanges(deps, before, changes, opts);
    // Past a few tries under constant change, the last decision is written as it stands.
    const written = await writeChanges(deps, before, plan, attempt < MAX_TRIES, opts);
    if (written) return await announceChanges(deps, before, plan, opts, written);
  }
}

const MAX_TRIES = 5;

/** Thrown when `proceedIf` no longer holds for the ticket: the caller's decision rested on a state now gone. */
export class TicketMovedOn extends Error {
  constructor(readonly ticketId: number) {
    super(`ticket ${ticketId} changed meanwhile`);
  }
}

interface TicketPlan {
  next: Pick<TicketRow, "status" | "userId" | "queueId" | "whatsappId">;
  tookOver: boolean;
  markRead: boolean;
  /** Whether a reopen or transfer makes the ticket active on a connection (one active ticket per contact there). */
  activates: boolean;
}

async function planChanges(
  deps: AppDeps,
  before: TicketRow,
  changes: TicketChanges,
  opts: ApplyOptions,
): Promise<TicketPlan> {
  const { actor } = opts;
  if (actor && !canSeeTicket(actor, before)) throw forbidden();
  if (changes.userId != null && !(await findUserById(deps.db, changes.userId))) throw notFound("ERR_NO_USER_FOUND");
  if (changes.queueId != null && !(await queueExists(deps.db, changes.queueId))) throw notFound("ERR_NO_QUEUE_FOUND");

  const next = {
    status: before.status as TicketStatus,
    userId: before.userId,
    queueId: before.queueId,
    whatsappId: before.whatsappId,
  };
  if (changes.status !== undefined) next.status = changes.status as TicketStatus;
  if (changes.userId !== undefined) next.userId = changes.userId;
  if (changes.queueId !== undefined) next.queueId = changes.queueId;
  if (changes.whatsappId !== undefined) next.whatsappId = changes.whatsappId;

  const movedConnection = changes.whatsappId !== undefined && changes.whatsappId !== before.whatsappId;
  const transferred = (changes.queueId !== undefined && changes.queueId !== before.queueId) || movedConnection;
  // Rule 68: a transfer without a user goes back to waiting.
  if (transferred && changes.userId === undefined && before.status !== "closed" && next.status !== "closed") {
    next.status = "pending";
    next.userId = null;
  }
  if (next.status === "open" && next.userId == null) {
    if (!actor) throw new FieldError("userId", "required");
    next.userId = actor.id;
  }
  if (
    next.status === "pending" &&
    changes.userId === undefined &&
    before.status === "open" &&
    changes.status === "pending"
  )
    next.userId = null;

  const reopening = before.status === "closed" && next.status !== "closed";
  if (actor) {
    if (reopening && !isAdmin(actor.profile) && before.userId !== actor.id) throw forbidden();
    if (movedConnection && !can(actor.profile, "ticket-options:transferWhatsapp")) throw forbidden();
  }
  if (movedConnection && !(await connectionExists(deps.db, changes.whatsappId!))) throw notFound("ERR_NO_WAPP_FOUND");
  const activates = (movedConnection || reopening) && next.status !== "closed";

  const tookOver =
    (next.status === "open" && before.status !== "open") ||
    next.userId !== before.userId ||
    transferred ||
    next.status === "closed";
  return { next, tookOver, markRead: opts.markRead ?? actor != null, activates };
}

/**
 * Writes the plan if the ticket is still as read (`guarded`), or as it stands, with its event in the ticket's
 * history; undefined when the ticket changed meanwhile. A change that changes nothing (a read, an accept of a
 * ticket already theirs) keeps the ticket's place and time, and the history has nothing to say about it.
 */
async function writeChanges(
  deps: AppDeps,
  before: TicketRow,
  plan: TicketPlan,
  guarded: boolean,
  { actor, cause, isBot }: ApplyOptions,
): Promise<{ row: TicketRow; event?: TicketEventRow } | undefined> {
  const { next, tookOver, markRead } = plan;
  const now = new Date(deps.clock.now());
  const kind = kindOfChange(before, next, actor?.id ?? null);
  return await atomically(deps.db, async (tx) => {
    if (plan.activates) {
      // One active ticket per contact and connection, checked under the lock inbound messages take to find or
      // create the contact's ticket, so neither makes a second.
      await lockContactTickets(tx, before.contactId);
      const other = await otherActiveTicket(tx, before.contactId, next.whatsappId, before.id);
      if (other) throw otherOpenError(actor, other.id);
    }
    const [row] = await tx
      .update(tickets)
      .set({
        ...next,
        ...(isBot !== undefined ? { isBot } : tookOver ? { isBot: false } : {}),
        ...(markRead ? { unreadMessages: 0 } : {}),
        ...(kind === "reopened" ? newEpisode(now) : {}),
        ...(next.status === "closed" ? { snoozedUntil: null } : {}),
        updatedAt: kind ? now : before.updatedAt,
      })
      .where(and(eq(tickets.id, before.id), guarded ? stillAsRead(before) : undefined))
      .returning();
    if (!row) return undefined;
    if (tookOver) await tx.delete(ticketDialogs).where(eq(ticketDialogs.ticketId, before.id));
    if (next.status === "closed" && before.snoozedUntil) await dropSnooze(tx, before.id);
    if (!kind) return { row };
    const event = await recordTicketEvent(tx, {
      ticketId: before.id,
      kind,
      cause: cause ?? (actor ? "agent" : "system"),
      at: now,
      actorUserId: actor?.id ?? null,
      before,
      after: next,
      value: kind === "resolved" ? resolutionMs(before, now) : null,
    });
    return { row, event };
  });
}

/** The ticket has not changed since `before` was read (every write to a ticket moves its `updatedAt`). */
function stillAsRead(before: TicketRow) {
  return and(
    eq(tickets.status, before.status),
    eq(tickets.updatedAt, before.updatedAt),
    before.userId == null ? isNull(tickets.userId) : eq(tickets.userId, before.userId),
    before.queueId == null ? isNull(tickets.queueId) : eq(tickets.queueId, before.queueId),
    before.whatsappId == null ? isNull(tickets.whatsappId) : eq(tickets.whatsappId, before.whatsappId),
  );
}

/** After the write: read state, events, then the farewell or the transfer message. */
async function announceChanges(
  deps: AppDeps,
  before: TicketRow,
  plan: TicketPlan,
  opts: ApplyOptions,
  { row: after, event }: { row: TicketRow; event?: TicketEventRow },
): Promise<TicketDto> {
  if (plan.markRead) await markTicketRead(deps, after);
  const assignment = await assignAfterChange(deps, before, after);
  // Another arrival may have given a waiting ticket meanwhile: the announcement says where it is now.
  after = assignment?.ticket ?? (isWaiting(after) ? await getTicketRow(deps, before.id) : after);
  const known = assignment ? [assignment.agent] : [];
  const [dto] = await toTicketDtos(deps.db, [after], { userNames: known });
  deps.events.emit("ticket.updated", { ticket: dto!, before });
  const events = [event, assignment?.event].filter((row) => row !== undefined);
  await announceTicketEvents(deps, events, known);
  const connection = after.whatsappId != null ? await findConnection(deps.db, after.whatsappId) : undefined;
  const resolved = before.status !== "closed" && after.status === "closed";
  const farewell = connection && resolved && opts.farewell !== false && connection.farewellMessage.trim();
  const transferMessage =
    opts.actor &&
    connection &&
    after.status !== "closed" &&
    after.queueId != null &&
    after.queueId !== before.queueId &&
    connection.transferTicketMessage.trim();
  if (farewell) await sendQuietly(deps, after, connection.farewellMessage, "farewell");
  else if (transferMessage) await sendQuietly(deps, after, connection.transferTicketMessage, "transfer message");
  // Only a resolve by a person asks for a rating: not auto-close, nor the external API.
  const rating = connection && resolved && opts.actor;
  if (rating) await askForRating(deps, after, connection);
  return farewell || transferMessage || rating ? await loadTicketDto(deps.db, before.id) : dto!; // a message sent moved it
}

async function sendQuietly(deps: AppDeps, ticket: TicketRow, template: string, what: string) {
  try {
    await sendTicketText(deps, ticket, template, { auto: true });
  } catch (error) {
    deps.log.warn(`${what} not sent`, { ticketId: ticket.id, error });
  }
}

export type NewTicket = TicketModel.Create;

/**
 * POST /tickets: on the user's default connection (else the global default), refused while the
 * contact has an active ticket there; without a queue, the user's only queue is used.
 */
export async function createTicket(deps: AppDeps, actor: AuthUser, input: NewTicket): Promise<TicketDto> {
  const status = (input.status ?? "open") as TicketStatus;
  if (!TICKET_STATUSES.includes(status)) throw new FieldError("status", "invalid");
  const contact = await findContact(deps.db, input.contactId);
  if (!contact) throw notFound("ERR_NO_CONTACT_FOUND");
  const userId = input.userId === undefined ? (status === "pending" ? null : actor.id) : input.userId;
  if (userId != null && !(await findUserById(deps.db, userId))) throw notFound("ERR_NO_USER_FOUND");
  if (status === "open" && userId == null) throw new FieldError("userId", "required");
  let queueId = input.queueId ?? null;
  if (queueId == null && input.queueId === undefined && actor.queueIds.length === 1) queueId = actor.queueIds[0]!;
  if (queueId != null) {
    if (!(await queueExists(deps.db, queueId))) throw notFound("ERR_NO_QUEUE_FOUND");
    if (!canSeeTicket(actor, { queueId, userId: null })) throw forbidden();
  }
  const connectionId = await defaultWhatsappId(deps.db, actor.id);
  const now = new Date(deps.clock.now());
  const row = await atomically(deps.db, async (tx) => {
    const other = await otherActiveTicket(tx, contact.id, connectionId);
    if (other) throw otherOpenError(actor, other.id);
    const ticket = await one(
      tx
        .insert(tickets)
        .values({
          contactId: contact.id,
          status,
          userId,
          queueId,
          whatsappId: connectionId,
          isGroup: contact.isGroup,
          isBot: false,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await recordCreation(tx, ticket, "agent", actor.id);
    return ticket;
  });
  const dto = await loadTicketDto(deps.db, row.id);
  deps.events.emit("ticket.updated", { ticket: dto });
  if (!isWaiting(row)) return dto;
  await assignWaiting(deps, row.queueId!);
  return await loadTicketDto(deps.db, row.id);
}

/** DELETE /tickets/:id: messages and tag links cascade, then their media files go; every room that showed it is told. */
export async function deleteTicket(deps: AppDeps, id: number) {
  const row = await getTicketRow(deps, id);
  const files = await atomically(deps.db, async (tx) => {
    const files = await mediaFilesOfTickets(tx, [id]);
    await tx.delete(tickets).where(eq(tickets.id, id));
    return files;
  });
  removeMediaFiles(deps, files);
  deps.events.emit("ticket.deleted", { ticket: row });
}

/** Replaces a ticket's tags with `tagIds` (unknown ids refused) and publishes the ticket. */
export async function syncTicketTags(
  deps: AppDeps,
  actor: AuthUser,
  ticketId: number,
  tagIds: number[],
): Promise<TicketDto> {
  const row = await getTicketRow(deps, ticketId);
  if (!canSeeTicket(actor, row)) throw forbidden();
  const wanted = [...new Set(tagIds)];
  if (!(await allTagsExist(deps.db, wanted))) throw notFound("ERR_NO_TAG_FOUND");
  await atomically(deps.db, async (tx) => {
    await tx.delete(ticketTags).where(eq(ticketTags.ticketId, ticketId));
    if (wanted.length) await tx.insert(ticketTags).values(wanted.map((tagId) => ({ ticketId, tagId })));
  });
  const dto = await loadTicketDto(deps.db, ticketId);
  deps.events.emit("ticket.updated", { ticket: dto });
  return dto;
}
