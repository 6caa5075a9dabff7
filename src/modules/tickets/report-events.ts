import { and, gte, inArray, isNotNull, isNull, lt, notInArray, or, type SQL, sql } from "drizzle-orm";
import type { Reader } from "../../db/client";
import { ticketEvents } from "../../db/tables";
import type { TicketEventKind } from "../../shared/contracts/ticket-events";

/** The kinds the reports count. */
export const REPORTED_KINDS = [
  "created",
  "resolved",
  "reopened",
  "first_response",
  "rated",
  "sla_breached",
] as const satisfies readonly TicketEventKind[];
export type ReportedKind = (typeof REPORTED_KINDS)[number];

/** The moves that bring a ticket created without a queue into one: it arrives there (`queued`). */
const ARRIVALS = ["transferred", "assigned"] as const satisfies readonly TicketEventKind[];

/**
 * One event as the reports read it: compact, without the ticket's other sides. `queued`: a move of a ticket from
 * no queue into one; `handed`: a change that gave a ticket its first agent (`alsoQueued` when it was a `queued`
 * move as well).
 */
export interface ReportedEvent {
  kind: ReportedKind | "queued" | "handed";
  alsoQueued?: boolean;
  at: number;
  actorUserId: number | null;
  toUserId: number | null;
  toQueueId: number | null;
  value: number | null;
}

/** What to read: [start, end) in epoch ms, and optionally only events of these queues or naming these users. */
export interface ReportedEventFilter {
  start: number;
  end: number;
  queueIds?: readonly number[];
  /** Events whose acting or resulting user is one of these (the caller credits each to one of them). */
  userIds?: readonly number[];
}

/**
 * The counted events of the span (in no particular order), as `queued` each move of a ticket from no queue
 * into one, and as `handed` each change that gave a ticket its first agent: two range reads, over the kind/time
 * index and the first agents' index.
 */
export async function reportedEvents(db: Reader, filter: ReportedEventFilter): Promise<ReportedEvent[]> {
  const [counted, handed] = await Promise.all([countedEvents(db, filter), firstAgentEvents(db, filter)]);
  return counted.concat(handed);
}

async function countedEvents(db: Reader, filter: ReportedEventFilter): Promise<ReportedEvent[]> {
  const where: (SQL | undefined)[] = [
    inArray(ticketEvents.kind, [...REPORTED_KINDS, ...ARRIVALS]),
    gte(ticketEvents.at, new Date(filter.start)),
    lt(ticketEvents.at, new Date(filter.end)),
    or(
      notInArray(ticketEvents.kind, [...ARRIVALS]),
      and(isNull(ticketEvents.fromQueueId), isNotNull(ticketEvents.toQueueId)),
    ),
  ];
  if (filter.queueIds) where.push(inArray(ticketEvents.toQueueId, [...filter.queueIds]));
  if (filter.userIds)
    where.push(
      or(inArray(ticketEvents.toUserId, [...filter.userIds]), inArray(ticketEvents.actorUserId, [...filter.userIds])),
    );
  const rows = await db
    .select({
      kind: ticketEvents.kind,
      at: ticketEvents.at,
      actorUserId: ticketEvents.actorUserId,
      toUserId: ticketEvents.toUserId,
      toQueueId: ticketEvents.toQueueId,
      value: ticketEvents.value,
    })
    .from(ticketEvents)
    .where(and(...where));
  return rows.map((r) => ({
    ...r,
    kind: (ARRIVALS as readonly string[]).includes(r.kind) ? "queued" : (r.kind as ReportedKind),
    at: r.at.getTime(),
  }));
}

/** The changes that gave tickets their first agent (recorded with `value` 1: see tickets/history.ts). */
async function firstAgentEvents(db: Reader, filter: ReportedEventFilter): Promise<ReportedEvent[]> {
  const where: (SQL | undefined)[] = [
    // Said exactly as the index's condition, which is how SQLite knows the index holds every match.
    sql`value = 1 and kind in ('accepted', 'assigned', 'transferred')`,
    gte(ticketEvents.at, new Date(filter.start)),
    lt(ticketEvents.at, new Date(filter.end)),
  ];
  if (filter.queueIds) where.push(inArray(ticketEvents.toQueueId, [...filter.queueIds]));
  if (filter.userIds) where.push(inArray(ticketEvents.toUserId, [...filter.userIds]));
  const rows = await db
    .select({
      kind: ticketEvents.kind,
      at: ticketEvents.at,
      toUserId: ticketEvents.toUserId,
      toQueueId: ticketEvents.toQueueId,
      fromQueueId: ticketEvents.fromQueueId,
    })
    .from(ticketEvents)
    .where(and(...where));
  return rows.map((r) => ({
    kind: "handed" as const,
    alsoQueued: (ARRIVALS as readonly string[]).includes(r.kind) && r.fromQueueId === null && r.toQueueId !== null,
    at: r.at.getTime(),
    actorUserId: null,
    toUserId: r.toUserId,
    toQueueId: r.toQueueId,
    value: null,
  }));
}
