import { type Db, first } from "../../db/client";
import {
  and,
  count,
  desc,
  eq,
  getTableColumns,
  inArray,
  isNull,
  or,
  type SQL,
  type SQLWrapper,
  type Subquery,
  sql,
} from "drizzle-orm";
import { unindexed } from "../../db/index-hints";
import { writtenLimit } from "../../db/prepared";
import { epochMs, storedInstant, tickets } from "../../db/tables";
import { can } from "../../shared/permissions";
import { TICKET_COUNT_CAP, TICKET_STATUSES, type TicketStatus } from "../../shared/contracts/tickets";
import { normalizeSearch } from "../../db/paging";
import type { AuthUser } from "../../shared/auth-user";
import { dayRangeParam } from "./day-range";
import { ticketSearch } from "./search";
import { indexNewContacts, indexNewMessages } from "../../db/search-index";
import { searchSql } from "../../db/search-sql";
import { carrying, fewTagged } from "./tag-carriers";
import { inlineValues, type ListValues } from "./list-values";

export interface TicketListParams {
  status?: TicketStatus;
  searchParam?: string;
  pageNumber?: number;
  /** The last ticket of the previous page (its updatedAt in epoch ms and id): the page continues after it. */
  before?: { updatedAt: number; id: number };
  date?: string;
  updatedAt?: string;
  showAll?: boolean;
  queueIds?: number[];
  withUnreadMessages?: boolean;
  /** Only the snoozed tickets; without it, snoozed tickets are left out. */
  snoozed?: boolean;
  /** Only the unresolved tickets past an SLA target. */
  slaBreached?: boolean;
  tags?: number[];
}

/**
 * Queue isolation in SQL: managers see everything (or the queues they picked, plus queue-less tickets);
 * agents see the picked queues intersected with their own, queue-less tickets and tickets assigned to them.
 * The columns carry a unary plus: most tickets pass this test, so it is checked on the entries of the index the
 * list reads in page order (which hold both columns), never answered by merging queue and user indexes.
 */
export function visibleTickets(user: AuthUser, queueIds?: number[], values = inlineValues): SQL | undefined {
  const queue = unindexed(tickets.queueId);
  if (can(user.profile, "tickets-manager:showall"))
    return queueIds ? or(values.among(queue, "queueIds", queueIds), isNull(queue)) : undefined;
  const allowed = queueIds ? queueIds.filter((q) => user.queueIds.includes(q)) : user.queueIds;
  return or(
    values.among(queue, "queueIds", allowed),
    isNull(queue),
    eq(unindexed(tickets.userId), values.one("userId", user.id)),
  );
}

/** `where` limited to the tickets after `before` in page order (newest activity first), when given. */
export function afterTicket(
  where: SQL | undefined,
  before: TicketListParams["before"],
  values = inlineValues,
): SQL | undefined {
  if (!before) return where;
  const at = values.one("beforeAt", storedInstant(before.updatedAt));
  return and(where, sql`(${tickets.updatedAt}, ${tickets.id}) < (${at}, ${values.one("beforeId", before.id)})`);
}

/** How many tickets match `where`, counting no further than TICKET_COUNT_CAP. */
export async function cappedCount(db: Db, where: SQL | undefined): Promise<number> {
  return (await first(ticketCountQuery(db, where)))?.n ?? 0;
}

/** The count query of the ticket list (exposed so its query plan can be checked). */
export function ticketCountQuery(db: Db, where: SQL | undefined) {
  const capped = db
    .select({ one: sql`1` })
    .from(tickets)
    .where(where)
    .limit(writtenLimit(TICKET_COUNT_CAP))
    .as("capped");
  return db.select({ n: count() }).from(capped);
}

/**
 * The ids and activity times (epoch ms) of the ticket list in page order, read from the page-order index alone
 * (exposed so its query plan can be checked).
 */
export function ticketOrderQuery(db: Db, where: SQL | undefined) {
  return db
    .select({ id: tickets.id, updatedAt: epochMs(tickets.updatedAt) })
    .from(tickets)
    .where(where)
    .orderBy(desc(tickets.updatedAt), desc(tickets.id));
}

/** The page query of the ticket list, newest activity first (exposed so its query plan can be checked). */
export function ticketPageQuery(db: Db, where: SQL | undefined) {
  return db.select().from(tickets).where(where).orderBy(desc(tickets.updatedAt), desc(tickets.id));
}

/**
 * A first page (no cursor, no offset) and its capped count in one statement: the count is a subquery the engine
 * runs once beside the page's index walk (exposed so its query plan can be checked). An empty first page has
 * nothing to count.
 */
export function ticketCountedPageQuery(db: Db, where: SQL | undefined, size: number) {
  const listCount = sql<number>`(${ticketCountQuery(db, where)})`.mapWith(Number);
  return db
    .select({ ...getTableColumns(tickets), listCount })
    .from(tickets)
    .where(where)
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .limit(writtenLimit(size));
}

/**
 * The ids and activity times of `size` tickets at `offset` of the lists of `parts` merged in page order, each list
 * read no further than its first `reach` tickets, in one statement (exposed so its query plan can be checked).
 */
export function statusesPageQuery(db: Db, parts: (SQL | undefined)[], reach: number, size: number, offset?: number) {
  const [first, ...others] = parts.map((part, i) => {
    const ordered = db
      .select({ id: tickets.id, updatedAt: epochMs(tickets.updatedAt).as("at") })
      .from(tickets)
      .where(part)
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(writtenLimit(reach))
      .as(`part${i}`);
    return db.select({ id: ordered.id, updatedAt: ordered.updatedAt }).from(ordered);
  });
  const merged = others
    .reduce((all, part) => all.unionAll(part), first!.$dynamic())
    .orderBy(desc(sql.identifier("at")), desc(sql.identifier("id")))
    .limit(writtenLimit(size));
  return offset === undefined ? merged : merged.offset(offset);
}

/** The rows of the tickets statusesPageQuery picks, in page order, in the same statement. */
export function statusesRowsQuery(db: Db, parts: (SQL | undefined)[], reach: number, size: number, offset?: number) {
  return rowsOfPicked(db, statusesPageQuery(db, parts, reach, size, offset).as("picked"));
}

/**
 * The rows of `size` tickets at `offset` of the list `where`, picked in page order from the page-order index's
 * entries alone (where the tickets carrying tags are matched) and then read whole, in one statement (exposed so its
 * query plan can be checked).
 */
export function ticketPickedPageQuery(db: Db, where: SQL | undefined, size: number, offset?: number) {
  const ordered = db
    .select({ id: tickets.id, updatedAt: sql<Date>`${tickets.updatedAt}`.as("at") })
    .from(tickets)
    .where(where)
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .limit(writtenLimit(size))
    .$dynamic();
  return rowsOfPicked(db, (offset === undefined ? ordered : ordered.offset(offset)).as("picked"));
}

/**
 * The whole rows of the tickets a subquery picked (their ids and activity times), in its order, with `extra`
 * fields of the subquery: the page is chosen reading no more than index entries, only its own rows are read from
 * the table, and on PostgreSQL the rows come in the same round trip as the choice.
 */
export function rowsOfPicked<
  P extends Subquery & { id: SQLWrapper; updatedAt: SQLWrapper },
  E extends Record<string, SQL>,
>(db: Db, picked: P, extra = {} as E) {
  return db
    .select({ ...getTableColumns(tickets), ...extra })
    .from(picked)
    .innerJoin(tickets, sql`${tickets.id} = ${picked.id}`)
    .orderBy(sql`${picked.updatedAt} desc`, sql`${picked.id} desc`);
}

/** The capped count of each list of `parts`, one row each, in one statement (exposed so its plan can be checked). */
export function statusesCountQuery(db: Db, parts: (SQL | undefined)[]) {
  const [first, ...others] = parts.map((part) => ticketCountQuery(db, part));
  return others.reduce((all, part) => all.unionAll(part), first!.$dynamic());
}

/**
 * The WHERE of the ticket list for this user and these filters. Without show-all a list holds the user's own
 * tickets and the pending ones; for one status that is said as the one condition it comes to, so the list reads
 * the index of that condition in page order.
 */
export async function ticketFilter(
  db: Db,
  user: AuthUser,
  params: TicketListParams,
  timeZone: string,
  rareTags?: boolean,
  values = inlineValues,
): Promise<SQL | undefined> {
  const conditions: (SQL | undefined)[] = [visibleTickets(user, params.queueIds, values)];
  const showAll = params.showAll && can(user.profile, "tickets-manager:showall");
  const tagIds = [...new Set(params.tags ?? [])];
  const search = normalizeSearch(params.searchParam);
  // A unary plus keeps SQLite from reading a column's index for a term. A picked day, the unread tickets, the
  // tickets carrying a rare tag and the search hits are far fewer than those of a status or a user, so then those
  // are what is read (a status would be walked in full when few of its tickets match); "mine or pending" walks the
  // page-order index rather than merging two indexes and sorting.
  rareTags ??= await fewTagged(db, tagIds);
  const narrower = Boolean(params.date || params.withUnreadMessages || params.slaBreached || rareTags || search);
  const pinned = narrower ? unindexed : (column: SQLWrapper) => column;
  if (!showAll && params.status !== "pending")
    conditions.push(
      params.status
        ? eq(pinned(tickets.userId), values.one("userId", user.id))
        : or(
            eq(unindexed(tickets.userId), values.one("userId", user.id)),
            statusIs(unindexed(tickets.status), "pending"),
          ),
    );
  if (params.status) conditions.push(statusIs(pinned(tickets.status), params.status));
  // Few tickets are snoozed at once: the test is made on each entry the list reads, never through an index.
  conditions.push(
    params.snoozed ? sql`${unindexed(tickets.snoozedUntil)} is not null` : isNull(unindexed(tickets.snoozedUntil)),
  );
  if (search) {
    await indexNewMessages(db);
    await indexNewContacts(db);
    conditions.push(searchSql().amongHits(tickets.id, ticketSearch(search)));
  }
  if (params.date)
    conditions.push(onDay(tickets.createdAt, "date", dayRangeParam(params.date, timeZone, "date"), values));
  if (params.updatedAt)
    conditions.push(
      onDay(tickets.updatedAt, "updated", dayRangeParam(params.updatedAt, timeZone, "updatedAt"), values),
    );
  // Said exactly as the unread (resp. breached) index's condition, which is how SQLite knows that index holds every match.
  if (params.withUnreadMessages) conditions.push(sql`unread_messages > 0`);
  if (params.slaBreached)
    conditions.push(sql`(first_response_breached = true OR resolution_breached = true) AND status <> 'closed'`);
  if (tagIds.length) {
    const carriers = carrying(
      db,
      tagIds.map((id, i) => values.one(`tag${i}`, id)),
    );
    // Many carriers: each page-order index entry is tested against them rather than each carrier looked up.
    conditions.push(rareTags ? searchSql().amongHits(tickets.id, carriers) : inArray(unindexed(tickets.id), carriers));
  }
  return and(...conditions);
}

/** That `column`'s instant falls in the day [start, end) (epoch ms), the day's bounds named `name`From/To. */
const onDay = (column: SQLWrapper, name: string, [start, end]: [number, number], values: ListValues) =>
  sql`${column} >= ${values.one(`${name}From`, storedInstant(start))} and ${column} < ${values.one(`${name}To`, storedInstant(end))}`;

/**
 * `column` = `status`, the status written into the SQL (one of three words, and part of a list's shape): bound, it
 * kept PostgreSQL from settling on one plan for a prepared list, planning it again on each run (0.25-0.35 ms), as
 * the plan made without the value expected a third of the tickets where the pending tab holds 3 %.
 */
function statusIs(column: SQLWrapper, status: TicketStatus): SQL {
  if (!TICKET_STATUSES.includes(status)) throw new Error(`not a ticket status: ${status}`);
  return sql`${column} = ${sql.raw(`'${status}'`)}`;
}
