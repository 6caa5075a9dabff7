import { getTableColumns, sql } from "drizzle-orm";
import type { Writer } from "../../db/client";
import { prepared } from "../../db/prepared";
import { type TicketEventRow, type TicketRow, ticketEvents } from "../../db/tables";
import type { TicketEventCause, TicketEventKind } from "../../shared/contracts/ticket-events";

/** What the history keeps of a ticket on each side of a change. */
export type TicketState = Pick<TicketRow, "status" | "userId" | "queueId" | "whatsappId">;

/** One change to record: its kind, who or what made it, when, and where the ticket stood before and after. */
export interface TicketChange {
  ticketId: number;
  kind: TicketEventKind;
  cause: TicketEventCause;
  at: Date;
  actorUserId: number | null;
  /** Null for a ticket that did not exist before. */
  before: TicketState | null;
  after: TicketState;
  /** The figure the kind measures (see `ticketEvents.value`). */
  value?: number | null;
}

/**
 * What a change of status, user, queue or connection was, or nothing when none of them changed: a ticket leaving
 * `closed` was reopened, one entering it resolved; a waiting ticket opened by the person who acts was accepted,
 * one opened with no one acting (the chatbot handing it to an attendant) assigned; any other move is a transfer.
 */
export function kindOfChange(before: TicketState, after: TicketState, actorUserId: number | null) {
  if (sameState(before, after)) return undefined;
  if (before.status === "closed" && after.status !== "closed") return "reopened";
  if (after.status === "closed" && before.status !== "closed") return "resolved";
  const opened = before.status === "pending" && after.status === "open";
  const samePlace = before.queueId === after.queueId && before.whatsappId === after.whatsappId;
  if (opened && samePlace && actorUserId == null) return "assigned";
  if (opened && samePlace && after.userId === actorUserId) return "accepted";
  return "transferred";
}

function sameState(a: TicketState, b: TicketState) {
  return a.status === b.status && a.userId === b.userId && a.queueId === b.queueId && a.whatsappId === b.whatsappId;
}

/** Records that `ticket` was created, as it was then, in the transaction that created it. */
export async function recordCreation(
  tx: Writer,
  ticket: TicketRow,
  cause: TicketEventCause,
  actorUserId: number | null = null,
) {
  await recordTicketEvent(tx, {
    ticketId: ticket.id,
    kind: "created",
    cause,
    at: ticket.createdAt,
    actorUserId,
    before: null,
    after: ticket,
  });
}

/**
 * Writes one change to the history, in the caller's transaction (the change's own): one insert. A change that gives
 * a ticket an agent is marked (`value` 1) when no earlier event of the ticket named one: its first agent, whom the
 * reports credit with the ticket's creation.
 */
export async function recordTicketEvent(tx: Writer, change: TicketChange): Promise<TicketEventRow> {
  const insert = mayGiveFirstAgent(change) ? insertHandedEvent : insertEvent;
  return (await insert(tx).get(eventValues(change))) as TicketEventRow;
}

/** The kinds of change that may give a ticket its first agent. */
export const HANDING_KINDS = ["accepted", "assigned", "transferred"] as const satisfies readonly TicketEventKind[];

const mayGiveFirstAgent = ({ kind, before, after, value }: TicketChange) =>
  (HANDING_KINDS as readonly string[]).includes(kind) &&
  before?.userId == null &&
  after.userId != null &&
  value == null;

function eventValues(change: TicketChange) {
  const { before, after } = change;
  return {
    ticketId: change.ticketId,
    kind: change.kind,
    cause: change.cause,
    at: change.at,
    actorUserId: change.actorUserId,
    fromStatus: before?.status ?? null,
    toStatus: after.status,
    fromUserId: before?.userId ?? null,
    toUserId: after.userId,
    fromQueueId: before?.queueId ?? null,
    toQueueId: after.queueId,
    fromWhatsappId: before?.whatsappId ?? null,
    toWhatsappId: after.whatsappId,
    value: change.value ?? null,
  };
}

const placeholders = () =>
  Object.fromEntries(
    Object.keys(getTableColumns(ticketEvents))
      .filter((column) => column !== "id")
      .map((column) => [column, sql.placeholder(column)]),
  ) as unknown as TicketEventRow;

// Prepared: the first message of every new contact records its ticket's creation.
const insertEvent = prepared((db) => db.insert(ticketEvents).values(placeholders()).returning().prepare());

// The first-agent test is a subquery of the insert: no statement more for accepting or assigning a ticket.
const insertHandedEvent = prepared((db) =>
  db
    .insert(ticketEvents)
    .values({
      ...placeholders(),
      value: sql`(case when exists (select 1 from ticket_events earlier where earlier.ticket_id = ${sql.placeholder("ticketId")} and earlier.to_user_id is not null) then null else 1 end)`,
    })
    .returning()
    .prepare(),
);

/** Writes changes to the history, in the caller's transaction: one insert per thousand changes. */
export async function recordTicketEvents(tx: Writer, changes: readonly TicketChange[]): Promise<TicketEventRow[]> {
  const rows: TicketEventRow[] = [];
  for (let i = 0; i < changes.length; i += CHUNK)
    rows.push(
      ...(await tx
        .insert(ticketEvents)
        .values(changes.slice(i, i + CHUNK).map(eventValues))
        .returning()),
    );
  return rows;
}

// Thirteen values a row stay under both engines' limit of values per statement.
const CHUNK = 1000;
