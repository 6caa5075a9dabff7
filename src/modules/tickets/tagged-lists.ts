import type { Db } from "../../db/client";
import { desc, type SQL, sql } from "drizzle-orm";
import { type TicketRow, tickets } from "../../db/tables";
import { prepared, writtenLimit } from "../../db/prepared";
import { can } from "../../shared/permissions";
import { TICKET_COUNT_CAP } from "../../shared/contracts/tickets";
import type { AuthUser } from "../../shared/auth-user";
import {
  afterTicket,
  cappedCount,
  type TicketListParams,
  ticketCountQuery,
  ticketFilter,
  rowsOfPicked,
  ticketPickedPageQuery,
} from "./list-filter";
import { boundValues } from "./list-values";
import { type RowPage, shapeFor, shapeKey, TICKET_PAGE_SIZE } from "./list-rows";

/**
 * A list with tags whose carriers are many: its page is picked from index entries alone (the carriers are matched
 * against the page-order index, which holds the order) and only its rows are then read. Its queries are prepared
 * once per shape (see shapeKey), the tags' ids among their values.
 */
export async function taggedList(db: Db, user: AuthUser, params: TicketListParams, timeZone: string, offset: number) {
  const showAll = params.showAll && can(user.profile, "tickets-manager:showall");
  const { bound, where, paged } = await boundFilter(db, user, params, timeZone, false);
  const counted = tabHoldsMost(params, showAll) ? await ticketFilter(db, user, params, timeZone, true, bound) : where;
  const skipped = offset ? bound.one("offset", offset) : undefined;
  const shape = shapeFor(taggedShapes, shapeKey(user, params, offset), () => taggedQueries(paged, counted, skipped));
  const [found, count] = await Promise.all([shape.page(db).all(bound.values), shape.count(db).get(bound.values)]);
  const rows = found.slice(0, TICKET_PAGE_SIZE);
  return { rows, hasMore: found.length > rows.length, count: count?.n ?? 0 };
}

const taggedShapes = new Map<string, ReturnType<typeof taggedQueries>>();

const taggedQueries = (paged: SQL | undefined, counted: SQL | undefined, offset: number | undefined) => ({
  page: prepared((db) => ticketPickedPageQuery(db, paged, TICKET_PAGE_SIZE + 1, offset).prepare()),
  count: prepared((db) => ticketCountQuery(db, counted).prepare()),
});

/**
 * Whether the tab holds most of the inbox (every ticket of the picked queues, or the closed ones): its count with a
 * common tag then looks the tag's carriers up, each once, rather than testing the tab's tickets until the cap is
 * met (a tag on 2,500 of 100,000 tickets: 2,500 lookups against 40,000 entries read). The open and pending tabs are
 * a few thousand tickets, cheaper to test than the carriers are to look up.
 */
const tabHoldsMost = (params: TicketListParams, showAll: boolean | undefined) =>
  Boolean(showAll) && (!params.status || params.status === "closed");

/**
 * A list with tags whose carriers are few, read as a set (see listFromSet) by a query prepared once per shape.
 */
export async function taggedSet(db: Db, user: AuthUser, params: TicketListParams, timeZone: string, offset: number) {
  const { bound, paged } = await boundFilter(db, user, params, timeZone, true);
  const skipped = offset ? bound.one("offset", offset) : undefined;
  const query = shapeFor(setShapes, shapeKey(user, params, offset), () => setQuery(paged, skipped));
  const found = await query(db).all(bound.values);
  if (!params.before && !(offset && !found.length)) return setPage(found);
  return setPage(found, await cappedCount(db, await ticketFilter(db, user, params, timeZone, true)));
}

const setShapes = new Map<string, ReturnType<typeof setQuery>>();

const setQuery = (paged: SQL | undefined, offset: number | undefined) =>
  prepared((db) => setPageQuery(db, paged, offset).prepare());

/** The list's filter with its values bound (`bound.values` holds them), and that filter after the list's cursor. */
async function boundFilter(db: Db, user: AuthUser, params: TicketListParams, timeZone: string, rareTags: boolean) {
  const bound = boundValues();
  const where = await ticketFilter(db, user, params, timeZone, rareTags, bound);
  return { bound, where, paged: afterTicket(where, params.before, bound) };
}

/**
 * A list read from a set of ids (search hits, tickets carrying tags): each ticket of the set is looked up once,
 * for its place and filters together, and the page's rows come back with how many matched in all.
 */
export async function listFromSet(
  db: Db,
  where: SQL | undefined,
  before: TicketListParams["before"],
  offset: number,
): Promise<RowPage> {
  const found = await setPageQuery(db, afterTicket(where, before), offset);
  // After a cursor (or past the end) the rows above do not tell the whole set's size, so it is counted apart; a
  // first page without rows is an empty set.
  return setPage(found, before || (offset && !found.length) ? await cappedCount(db, where) : undefined);
}

/**
 * The page's rows (and the one after) of a set of tickets at `offset`, each carrying the set's size. The set is
 * sorted and counted on its tickets' ids and activity times alone, and only the page's rows are then read whole:
 * sorting the whole rows of 610 tickets took PostgreSQL twice as long (3.5 against 1.8 ms).
 */
const setPageQuery = (db: Db, where: SQL | undefined, offset: number | undefined) => {
  const query = db
    .select({
      id: tickets.id,
      updatedAt: sql<Date>`${tickets.updatedAt}`.as("at"),
      setSize: sql<number>`count(*) over ()`.as("set_size"),
    })
    .from(tickets)
    .where(where)
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    // Written into the SQL, not bound: PostgreSQL's plan for a prepared statement, made without the limit's value,
    // would walk the whole list in page order and test each ticket against the set (25 ms at 100,000 tickets)
    // instead of looking the set's tickets up (5 ms).
    .limit(writtenLimit(TICKET_PAGE_SIZE + 1))
    .$dynamic();
  const page = (offset === undefined ? query : query.offset(offset)).as("page");
  return rowsOfPicked(db, page, { setSize: sql<number>`${page.setSize}`.mapWith(Number) });
};

/** A set's page from its rows as setPageQuery reads them; `counted` is the set's size when counted apart. */
function setPage(found: (TicketRow & { setSize: number })[], counted?: number): RowPage {
  const rows = found.map(({ setSize: _, ...row }) => row);
  const page = rows.slice(0, TICKET_PAGE_SIZE);
  const total = counted ?? found[0]?.setSize ?? 0;
  return { rows: page, hasMore: rows.length > page.length, count: Math.min(total, TICKET_COUNT_CAP) };
}
