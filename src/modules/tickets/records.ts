import { atomically, type Db, first, lockKey, lockKeys, one, type Reader, type Writer } from "../../db/client";
import {
  type AnyColumn,
  and,
  count,
  countDistinct,
  desc,
  eq,
  gte,
  inArray,
  isNull,
  lt,
  lte,
  type SQL,
  sql,
} from "drizzle-orm";
import { eachId, gatheredById, lookupEachKey } from "../../db/gathered";
import { prepared } from "../../db/prepared";
import { storedInstant, type TicketEventRow, ticketTags, tickets, type TicketRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { moveTicketMessages } from "../messages/records";
import { moveTicketSchedules } from "../schedules/records";
import { recordTicketEvent, recordTicketEvents } from "./history";
import { announceTicketEvents } from "./history-dtos";
import { SHOWN_COLUMNS, type TicketShown } from "./last-message";

const ACTIVE = ["open", "pending"] as const;

/** The ticket row by id. */
export async function findTicket(db: Reader, id: number): Promise<TicketRow | undefined> {
  return await ticketById(db).get({ id });
}

const ticketById = prepared((db) =>
  db
    .select()
    .from(tickets)
    .where(eq(tickets.id, sql.placeholder("id")))
    .prepare(),
);

const ticketsEachId = prepared((db) =>
  lookupEachKey(db, eachId("ids"), db.select().from(tickets).where(sql`${tickets.id} = k.id`)),
);

/** The ticket row by id, read with the others of its kind asked for together (see gathered, readTogether). */
export const gatheredTicket = gatheredById<TicketRow>(ticketById, ticketsEachId);

/**
 * The prepared read of a chat's tickets (placeholders `contactId` and `whatsappId`) that meet `conditions`: a few
 * at most, read without ORDER BY, which made SQLite sort them in a temporary tree for every message that read
 * them (latestBy picks among them).
 */
export function chatTickets(db: Db, ...conditions: SQL[]) {
  return db
    .select()
    .from(tickets)
    .where(
      and(
        eq(tickets.contactId, sql.placeholder("contactId")),
        eq(tickets.whatsappId, sql.placeholder("whatsappId")),
        ...conditions,
      ),
    )
    .prepare();
}

/** `at` is at or after the placeholder `since`, as the column stores it (storedInstant). */
export const atOrAfterSince = (at: AnyColumn) => gte(at, sql`${sql.placeholder("since")}`);

/** The row of the latest `at` (the highest id among equals). */
export function latestBy(rows: readonly TicketRow[], at: (row: TicketRow) => number): TicketRow | undefined {
  let best: TicketRow | undefined;
  let bestAt = 0;
  for (const row of rows) {
    const rowAt = at(row);
    if (!best || rowAt > bestAt || (rowAt === bestAt && row.id > best.id)) {
      best = row;
      bestAt = rowAt;
    }
  }
  return best;
}

/** The tickets of these ids. */
export async function findTickets(db: Reader, ids: readonly number[]): Promise<TicketRow[]> {
  if (!ids.length) return [];
  return await db
    .select()
    .from(tickets)
    .where(inArray(tickets.id, [...ids]));
}

/** Every ticket's id and status. */
export async function ticketStatuses(db: Reader): Promise<Pick<TicketRow, "id" | "status">[]> {
  return await db.select({ id: tickets.id, status: tickets.status }).from(tickets);
}

/** Every ticket of the contact, latest activity first. */
export async function ticketsOfContact(db: Reader, contactId: number): Promise<TicketRow[]> {
  return (await ticketsOfContactQuery(db).all({ contactId })) as TicketRow[];
}

const ticketsOfContactQuery = prepared((db) =>
  db
    .select()
    .from(tickets)
    .where(eq(tickets.contactId, sql.placeholder("contactId")))
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .prepare(),
);

/**
 * Every ticket of the contact of ticket `id`, that ticket among them, latest activity first; none when it does not
 * exist. One statement where reading the ticket and then its contact's tickets waited for two answers.
 */
export async function ticketsOfTicketsContact(db: Reader, id: number): Promise<TicketRow[]> {
  return (await ticketsOfTicketsContactQuery(db).all({ id })) as TicketRow[];
}

const ticketsOfTicketsContactQuery = prepared((db) =>
  db
    .select()
    .from(tickets)
    .where(
      sql`${tickets.contactId} = (select ${tickets.contactId} from ${tickets} where ${tickets.id} = ${sql.placeholder("id")})`,
    )
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .prepare(),
);

/** The contact's open and pending tickets. */
export async function activeTicketsOfContact(db: Reader, contactId: number): Promise<TicketRow[]> {
  return await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.contactId, contactId), inArray(tickets.status, [...ACTIVE])));
}

/** The ids of the user's open tickets. */
export async function openTicketIdsOf(db: Reader, userId: number): Promise<number[]> {
  return (
    await db
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.userId, userId), eq(tickets.status, "open")))
  ).map((r) => r.id);
}

/** What the list shows when nobody wrote anything yet. */
export const NOTHING_SHOWN: TicketShown = {
  lastMessage: "",
  previewKind: null,
  previewText: "",
  previewDetail: null,
  previewFromMe: false,
  previewAck: 0,
  previewMessageId: null,
};

/** A message imported from the chat history: the ticket's last message and time move only forward, to `at`. */
export async function touchHistoryMessage(tx: Writer, ticketId: number, shown: TicketShown, at: Date) {
  await touchForward(tx).run({ ticketId, at: storedInstant(at), ...shown });
}

const touchForward = prepared((db) =>
  db
    .update(tickets)
    .set({
      ...Object.fromEntries(SHOWN_COLUMNS.map((c) => [c, sql`${sql.placeholder(c)}`])),
      updatedAt: sql`${sql.placeholder("at")}`,
    })
    .where(and(eq(tickets.id, sql.placeholder("ticketId")), lte(tickets.updatedAt, sql`${sql.placeholder("at")}`)))
    .prepare(),
);

/**
 * Shows another message in the list while the ticket shows `messageId` (that one was deleted or changed); returns
 * the ticket as it is now, or nothing when it shows another message.
 */
export async function replaceShown(
  tx: Writer,
  ticketId: number,
  messageId: number,
  shown: TicketShown,
): Promise<TicketRow | undefined> {
  // The ticket keeps its place in the list: only what it shows changes.
  return await first(
    tx
      .update(tickets)
      .set({ ...shown, updatedAt: sql`${tickets.updatedAt}` })
      .where(and(eq(tickets.id, ticketId), eq(tickets.previewMessageId, messageId)))
      .returning(),
  );
}

/** The delivery status of the message the list shows rose: returns the ticket when it shows that message. */
export async function raiseShownAck(tx: Writer, messageId: number, ack: number): Promise<TicketRow | undefined> {
  return await first(
    tx
      .update(tickets)
      .set({ previewAck: ack, updatedAt: sql`${tickets.updatedAt}` })
      .where(and(eq(tickets.previewMessageId, messageId), lt(tickets.previewAck, ack)))
      .returning(),
  );
}

/**
 * Attaches a connection to a ticket that has none (a message goes out on it), with the move in the ticket's
 * history; returns the row as it is now.
 */
export async function attachConnection(
  deps: Pick<AppDeps, "db" | "events" | "clock">,
  ticket: TicketRow,
  connectionId: number,
): Promise<TicketRow> {
  const at = new Date(deps.clock.now());
  const { row, event } = await atomically(deps.db, async (tx) => {
    const row = await one(
      tx.update(tickets).set({ whatsappId: connectionId }).where(eq(tickets.id, ticket.id)).returning(),
    );
    const event = await recordTicketEvent(tx, {
      ticketId: ticket.id,
      kind: "transferred",
      cause: "system",
      at,
      actorUserId: null,
      before: ticket,
      after: row,
    });
    return { row, event };
  });
  await announceTicketEvents(deps, [event]);
  return row;
}

/** Switches the bot on or off for the ticket. */
export async function setBotMode(db: Writer, ticketId: number, isBot: boolean) {
  await db.update(tickets).set({ isBot }).where(eq(tickets.id, ticketId));
}

/** How many tickets sit in the queue, and its active ones (those shown in live lists). */
export async function ticketsInQueue(tx: Reader, queueId: number): Promise<{ held: number; active: TicketRow[] }> {
  const held = (await first(tx.select({ n: count() }).from(tickets).where(eq(tickets.queueId, queueId))))?.n ?? 0;
  const active = await tx
    .select()
    .from(tickets)
    .where(and(eq(tickets.queueId, queueId), inArray(tickets.status, [...ACTIVE])));
  return { held, active };
}

/**
 * Moves every ticket of a queue to another queue (or none), in the caller's transaction, with each move in its
 * ticket's history (`actorUserId` moved them); returns those events.
 */
export async function moveQueueTickets(
  tx: Writer,
  from: number,
  to: number | null,
  at: Date,
  actorUserId: number | null,
): Promise<TicketEventRow[]> {
  const moving = await tx.select(stateColumns()).from(tickets).where(eq(tickets.queueId, from));
  const events = await recordTicketEvents(
    tx,
    moving.map(({ id, ...before }) => ({
      ticketId: id,
      kind: "transferred" as const,
      cause: "queue_deleted" as const,
      at,
      actorUserId,
      before,
      after: { ...before, queueId: to },
    })),
  );
  await tx.update(tickets).set({ queueId: to }).where(eq(tickets.queueId, from));
  return events;
}

const stateColumns = () => ({
  id: tickets.id,
  status: tickets.status,
  userId: tickets.userId,
  queueId: tickets.queueId,
  whatsappId: tickets.whatsappId,
});

/** The ids of the contact's tickets. */
export async function ticketIdsOfContact(db: Reader, contactId: number): Promise<number[]> {
  return (await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.contactId, contactId))).map((r) => r.id);
}

/** How many distinct tickets carry each of these tags. */
export async function taggedTicketCounts(db: Reader, tagIds: readonly number[]): Promise<Map<number, number>> {
  if (!tagIds.length) return new Map();
  const counts = await db
    .select({ tagId: ticketTags.tagId, n: countDistinct(ticketTags.ticketId) })
    .from(ticketTags)
    .where(inArray(ticketTags.tagId, [...tagIds]))
    .groupBy(ticketTags.tagId);
  return new Map(counts.map((c) => [c.tagId, c.n]));
}

/** What moving one contact's tickets to another changed. */
export interface MovedTickets {
  /** Tickets folded into the other contact's active ticket, and deleted. */
  removedTickets: TicketRow[];
  /** Tickets now of the other contact (moved, or kept with a folded one). */
  movedTicketIds: number[];
}

/**
 * Moves every ticket of contact `from` to contact `into`, in the caller's transaction. An active ticket on a
 * connection where `into` has one too is folded into that one (one active ticket per contact and connection):
 * the one someone already works on (open) stays, a pending one is folded into it.
 */
export async function moveContactTickets(tx: Writer, from: number, into: number): Promise<MovedTickets> {
  const removedTickets: TicketRow[] = [];
  const movedTicketIds: number[] = [];
  for (const ticket of await tx.select().from(tickets).where(eq(tickets.contactId, from))) {
    const twin = isActive(ticket) ? await activeTicketOf(tx, into, ticket) : undefined;
    if (!twin) {
      await tx.update(tickets).set({ contactId: into, updatedAt: ticket.updatedAt }).where(eq(tickets.id, ticket.id));
      movedTicketIds.push(ticket.id);
      continue;
    }
    const [keep, drop] = twin.status === "pending" && ticket.status === "open" ? [ticket, twin] : [twin, ticket];
    await fold(tx, keep, drop, into);
    removedTickets.push(drop);
    movedTicketIds.push(keep.id);
  }
  return { removedTickets, movedTicketIds };
}

const isActive = (t: TicketRow) => (ACTIVE as readonly string[]).includes(t.status);

async function activeTicketOf(tx: Reader, contactId: number, like: TicketRow): Promise<TicketRow | undefined> {
  const connection = like.whatsappId == null ? isNull(tickets.whatsappId) : eq(tickets.whatsappId, like.whatsappId);
  return await first(
    tx
      .select()
      .from(tickets)
      .where(
        and(
          eq(tickets.contactId, contactId),
          connection,
          eq(tickets.channel, like.channel),
          inArray(tickets.status, [...ACTIVE]),
        ),
      )
      .orderBy(desc(tickets.updatedAt), desc(tickets.id)),
  );
}

/** Moves `drop`'s messages, tags and schedules into `keep` (unread counts add up) and deletes `drop`. */
async function fold(tx: Writer, keep: TicketRow, drop: TicketRow, contactId: number) {
  await moveTicketMessages(tx, drop.id, keep.id);
  await moveTicketSchedules(tx, drop.id, keep.id);
  const tagIds = await tx.select({ tagId: ticketTags.tagId }).from(ticketTags).where(eq(ticketTags.ticketId, drop.id));
  if (tagIds.length)
    await tx
      .insert(ticketTags)
      .values(tagIds.map(({ tagId }) => ({ ticketId: keep.id, tagId })))
      .onConflictDoNothing();
  const latest = drop.updatedAt > keep.updatedAt ? drop : keep;
  await tx
    .update(tickets)
    .set({
      contactId,
      unreadMessages: sql`${tickets.unreadMessages} + ${drop.unreadMessages}`,
      // The moved messages, counted as they are now (the triggers count only inserts and deletes).
      messageCount: sql`${tickets.messageCount} + (select ${tickets.messageCount} from ${tickets} where ${tickets.id} = ${drop.id})`,
      lastMessage: latest.lastMessage,
      updatedAt: latest.updatedAt,
    })
    .where(eq(tickets.id, keep.id));
  await tx.delete(tickets).where(eq(tickets.id, drop.id));
}

/**
 * Within a transaction, waits for any other holding the contact's tickets (on PostgreSQL; SQLite's single writer
 * already gives this): whoever finds, creates, reopens or moves a contact's active ticket takes it first.
 */
export async function lockContactTickets(tx: Writer, contactId: number) {
  await lockKey(tx, ticketLockOf(contactId));
}

/** lockContactTickets for each of `contactIds`, in their order, in one statement. */
export async function lockContactsTickets(tx: Writer, contactIds: readonly number[]) {
  await lockKeys(tx, contactIds.map(ticketLockOf));
}

const ticketLockOf = (contactId: number) => `ticket-of-contact:${contactId}`;
