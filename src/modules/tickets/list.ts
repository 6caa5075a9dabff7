import type { Db } from "../../db/client";
import { desc, type SQL } from "drizzle-orm";
import { tickets } from "../../db/tables";
import { can } from "../../shared/permissions";
import { TICKET_COUNT_CAP, type TicketStatus } from "../../shared/contracts/tickets";
import { normalizeSearch, pageWindow } from "../../db/paging";
import type { AuthUser } from "../../shared/auth-user";
import { matcherAmong, searchBreadth } from "./search";
import { type KnownForTicketDtos, toTicketDtos } from "./serialize";
import type { TicketPageDto } from "../../shared/contracts/tickets";
import { newestMatches } from "../messages/search";
import { fewTagged } from "./tag-carriers";
import { boundValues } from "./list-values";
import {
  afterTicket,
  type TicketListParams,
  ticketCountQuery,
  ticketCountedPageQuery,
  ticketFilter,
  ticketOrderQuery,
  ticketPageQuery,
  statusesCountQuery,
  statusesRowsQuery,
} from "./list-filter";
import { prepared, writtenLimit } from "../../db/prepared";
import { pageOf, type RowPage, shapeFor, shapeKey, TICKET_PAGE_SIZE, ticketsInOrder } from "./list-rows";
import { listFromSet, taggedList, taggedSet } from "./tagged-lists";

export { TICKET_PAGE_SIZE } from "./list-rows";

/** The list's filter and queries, also asked for by the other lists of tickets and the plan test. */
export * from "./list-filter";

type TicketPage = TicketPageDto;
type Before = TicketListParams["before"];

/**
 * GET /tickets: every filter composes with AND. The page is read one row past its size to know whether more
 * follow; `before` continues after the previous page's last ticket (keyset), while `pageNumber` alone still pages
 * by offset. The count stops at TICKET_COUNT_CAP, so it costs at most that many index entries.
 */
export async function listTickets(
  db: Db,
  user: AuthUser,
  params: TicketListParams,
  timeZone: string,
): Promise<TicketPage> {
  return (await listsOfTickets(db, user, [params], timeZone))[0]!;
}

/**
 * Several lists of the same user (a page's tabs): their pages are read at once and their tickets serialised
 * together, so each relation of all of them is one query. `known` may still be under way while the pages are read.
 */
export async function listsOfTickets(
  db: Db,
  user: AuthUser,
  lists: TicketListParams[],
  timeZone: string,
  known?: KnownForTicketDtos | Promise<KnownForTicketDtos>,
): Promise<TicketPage[]> {
  const pages = await Promise.all(lists.map((params) => ticketRowPage(db, user, params, timeZone)));
  const dtos = await toTicketDtos(
    db,
    pages.flatMap((page) => page.rows),
    await known,
  );
  let at = 0;
  return await Promise.all(
    pages.map(({ rows, ...page }, i) => {
      const tickets = dtos.slice(at, (at += rows.length));
      const search = normalizeSearch(lists[i]!.searchParam);
      return search ? withSearchMatches(db, { tickets, ...page }, search) : { tickets, ...page };
    }),
  );
}

async function ticketRowPage(db: Db, user: AuthUser, params: TicketListParams, timeZone: string): Promise<RowPage> {
  const search = normalizeSearch(params.searchParam);
  const rareTags = await fewTagged(db, params.tags);
  const { before } = params;
  const offset = before ? 0 : pageWindow(params.pageNumber, TICKET_PAGE_SIZE).offset;
  if (search) {
    const where = await ticketFilter(db, user, params, timeZone, rareTags);
    const breadth = await searchBreadth(db, search);
    const page =
      breadth.messages || breadth.contacts
        ? await listWalked(db, await walkedLists(db, user, params, timeZone, rareTags), {
            matching: await matcherAmong(db, search, breadth),
            before,
            offset,
          })
        : await listFromSet(db, where, before, offset);
    const last = page.rows.at(-1);
    const next =
      page.next ?? (page.hasMore ? cursorOf(last && { id: last.id, updatedAt: last.updatedAt.getTime() }) : undefined);
    return { ...page, next };
  }
  if (rareTags) return await taggedSet(db, user, params, timeZone, offset);
  const showAll = params.showAll && can(user.profile, "tickets-manager:showall");
  if (!params.status && !showAll) {
    // "Mine or pending" across statuses: each status is one index range in page order, merged here.
    const [found, counts] = await statusesPage(db, user, params, timeZone, offset);
    const counted = counts.reduce((n, { n: c }) => n + c, 0);
    const rows = found.slice(0, TICKET_PAGE_SIZE);
    return { rows, hasMore: found.length > rows.length, count: Math.min(counted, TICKET_COUNT_CAP) };
  }
  if (params.tags?.length) return await taggedList(db, user, params, timeZone, offset);
  const [rows, count] = await shapedList(db, user, params, timeZone, offset);
  const page = rows.slice(0, TICKET_PAGE_SIZE);
  return { rows: page, count, hasMore: rows.length > page.length };
}

/**
 * A list's page and count by queries prepared once per shape (status, show-all, filters present, cursor, day or
 * page number or not; see `ListValues`): building them through drizzle cost more client CPU than running them.
 */
async function shapedList(db: Db, user: AuthUser, params: TicketListParams, timeZone: string, offset: number) {
  const bound = boundValues();
  const where = await ticketFilter(db, user, params, timeZone, false, bound);
  const paged = afterTicket(where, params.before, bound);
  const skipped = offset ? bound.one("offset", offset) : undefined;
  const key = shapeKey(user, params, offset);
  const shape = shapeFor(listShapes, key, () => shapeQueries(where, paged, skipped, !params.before && !offset));
  const { values } = bound;
  if (shape.counted) {
    const found = await shape.counted(db).all(values);
    return [found.map(({ listCount: _, ...row }) => row), found[0]?.listCount ?? 0] as const;
  }
  // Past the first page the skipped tickets are read from the page-order index alone, and only the page's rows
  // from the table (PostgreSQL fetched every skipped row: 3-4 ms at page 40).
  const rows = shape.skipping
    ? shape
        .skipping(db)
        .all(values)
        .then((found) =>
          ticketsInOrder(
            db,
            found.map((t) => t.id),
          ),
        )
    : shape.page(db).all(values);
  return await Promise.all([
    rows,
    shape
      .count(db)
      .get(values)
      .then((r) => r?.n ?? 0),
  ]);
}

const listShapes = new Map<string, ReturnType<typeof shapeQueries>>();

const shapeQueries = (where: SQL | undefined, paged: SQL | undefined, offset: number | undefined, first: boolean) => ({
  // A first page's rows carry the list's count: one statement instead of two (on PostgreSQL, one less to answer).
  counted: first ? prepared((db) => ticketCountedPageQuery(db, where, TICKET_PAGE_SIZE + 1).prepare()) : undefined,
  page: prepared((db) =>
    ticketPageQuery(db, paged)
      .limit(writtenLimit(TICKET_PAGE_SIZE + 1))
      .prepare(),
  ),
  skipping:
    offset === undefined
      ? undefined
      : prepared((db) =>
          db
            .select({ id: tickets.id })
            .from(tickets)
            .where(paged)
            .orderBy(desc(tickets.updatedAt), desc(tickets.id))
            .limit(writtenLimit(TICKET_PAGE_SIZE + 1))
            .offset(offset)
            .prepare(),
        ),
  count: prepared((db) => ticketCountQuery(db, where).prepare()),
});

/**
 * "Mine or pending": the rows of the page's tickets (and the one after) merged from the three statuses' lists,
 * each read in page order up to the page's end, and each status's capped count, one statement each; prepared
 * once per shape (see shapedList).
 */
async function statusesPage(db: Db, user: AuthUser, params: TicketListParams, timeZone: string, offset: number) {
  const lists = STATUSES.map((status) => ({ ...params, status }));
  const size = TICKET_PAGE_SIZE + 1;
  const bound = boundValues();
  const parts = await Promise.all(lists.map((list) => ticketFilter(db, user, list, timeZone, false, bound)));
  const paged = parts.map((part) => afterTicket(part, params.before, bound));
  const reach = offset ? bound.one("reach", offset + size) : size;
  const skipped = offset ? bound.one("offset", offset) : undefined;
  const key = shapeKey(user, params, offset);
  const shape = shapeFor(statusesShapes, key, () => statusesQueries(parts, paged, reach, skipped));
  return await Promise.all([shape.page(db).all(bound.values), shape.count(db).all(bound.values)]);
}

const statusesShapes = new Map<string, ReturnType<typeof statusesQueries>>();

const statusesQueries = (
  parts: (SQL | undefined)[],
  paged: (SQL | undefined)[],
  reach: number,
  offset: number | undefined,
) => ({
  page: prepared((db) => statusesRowsQuery(db, paged, reach, TICKET_PAGE_SIZE + 1, offset).prepare()),
  count: prepared((db) => statusesCountQuery(db, parts).prepare()),
});

const STATUSES: TicketStatus[] = ["open", "pending", "closed"];

/** Search results show, under each ticket, the newest message that matched rather than its last message. */
async function withSearchMatches(db: Db, page: TicketPage, search: string): Promise<TicketPage> {
  const matches = await newestMatches(
    db,
    page.tickets.map((t) => t.id),
    search,
  );
  return { ...page, tickets: page.tickets.map((t) => ({ ...t, searchMatch: matches.get(t.id) ?? null })) };
}

/**
 * The lists a broad search walks, without the search: "mine or pending" across statuses as one list per status
 * (each one index range in page order, merged as they are read), else the one list.
 */
async function walkedLists(
  db: Db,
  user: AuthUser,
  params: TicketListParams,
  timeZone: string,
  rareTags: boolean,
): Promise<(SQL | undefined)[]> {
  const unsearched = { ...params, searchParam: undefined };
  const showAll = params.showAll && can(user.profile, "tickets-manager:showall");
  if (params.status || showAll) return [await ticketFilter(db, user, unsearched, timeZone, rareTags)];
  return await Promise.all(
    STATUSES.map((status) => ticketFilter(db, user, { ...unsearched, status }, timeZone, rareTags)),
  );
}

/** The first `limit` tickets after `before` of the lists `parts` merged, in page order. */
async function mergedPageOrder(db: Db, parts: (SQL | undefined)[], before: Before, limit: number) {
  const read = await Promise.all(parts.map((part) => pageOrder(db, afterTicket(part, before), limit)));
  if (read.length === 1) return read[0]!;
  return read
    .flat()
    .sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id)
    .slice(0, limit);
}

/** Tickets a broad search checks at once while walking the list, at least and at most. */
const SHORTEST_STRETCH = 100;
const LONGEST_STRETCH = 2_000;
/** Tickets a broad search's page walks at most: where matches are far apart, the page ends short of its size. */
const WALK_PER_PAGE = 2_000;

/**
 * A broad search's page (see BROAD_SEARCH_HITS): the lists of `lists` are walked in page order after `before`,
 * a stretch of tickets at a time, each stretch checked against the search in one go, until the page is full, the
 * list ends or WALK_PER_PAGE tickets were walked (the page then says where the walk goes on). Each stretch is as
 * long as the share of matches met so far says the page still needs. Its count is what a first page found when
 * its walk reached the end, else the count's cap (a broad search matches more tickets than anyone counts).
 */
async function listWalked(
  db: Db,
  lists: (SQL | undefined)[],
  {
    matching,
    before,
    offset,
  }: { matching: (ticketIds: number[]) => Promise<Set<number>>; before: Before; offset: number },
): Promise<RowPage> {
  const wanted = offset + TICKET_PAGE_SIZE + 1;
  const found: { id: number; updatedAt: number }[] = [];
  let after = before;
  let walkedSoFar = 0;
  let ended = false;
  while (found.length < wanted && walkedSoFar < WALK_PER_PAGE) {
    // A fifth of the tickets matching, until more is known.
    const share = (found.length + 1) / (walkedSoFar + 5);
    const needed = Math.ceil((wanted - found.length) / share);
    const stretch = Math.min(LONGEST_STRETCH, WALK_PER_PAGE - walkedSoFar, Math.max(SHORTEST_STRETCH, needed));
    const walked = await mergedPageOrder(db, lists, after, stretch);
    const matched = await matching(walked.map((t) => t.id));
    for (const t of walked) if (matched.has(t.id)) found.push(t);
    walkedSoFar += walked.length;
    const last = walked.at(-1);
    if (!last || walked.length < stretch) {
      ended = true;
      break;
    }
    after = { updatedAt: last.updatedAt, id: last.id };
  }
  const page = await pageOf(
    db,
    found.map((t) => t.id),
    offset,
  );
  if (page.hasMore) return { ...page, count: TICKET_COUNT_CAP, next: cursorOf(found[offset + TICKET_PAGE_SIZE - 1]) };
  if (ended) return { ...page, count: before ? TICKET_COUNT_CAP : found.length };
  // The walk stopped short of a full page: the next one goes on from where it stopped.
  return { ...page, count: TICKET_COUNT_CAP, hasMore: true, next: cursorOf(after) };
}

/** The cursor after `ticket`, as GET /tickets names it. */
const cursorOf = (ticket: { id: number; updatedAt: number } | undefined) =>
  ticket && { beforeUpdatedAt: ticket.updatedAt, beforeId: ticket.id };

/** Ids and activity times of the first `limit` tickets matching `where`, in page order. */
async function pageOrder(db: Db, where: SQL | undefined, limit: number) {
  return await ticketOrderQuery(db, where).limit(limit);
}
