import { type Db, first } from "../../db/client";
import { and, count, desc, eq, gte, inArray, isNull, lt, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { unindexed } from "../../db/index-hints";
import { epochMs, storedInstant, type TicketRow, tickets } from "../../db/tables";
import { can } from "../../shared/permissions";
import { TICKET_COUNT_CAP, type TicketStatus } from "../../shared/contracts/tickets";
import { normalizeSearch, pageWindow } from "../../db/paging";
import type { AuthUser } from "../../shared/auth-user";
import { dayRangeParam } from "./day-range";
import { matcherAmong, searchBreadth, ticketSearch } from "./search";
import { indexNewContacts, indexNewMessages } from "../../db/search-index";
import { searchSql } from "../../db/search-sql";
import { type KnownForTicketDtos, toTicketDtos } from "./serialize";
import type { TicketPageDto } from "../../shared/contracts/tickets";
import { newestMatches } from "../messages/search";
import { carrying, fewTagged } from "./tag-carriers";

export const TICKET_PAGE_SIZE = 40;

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
export function visibleTickets(user: AuthUser, queueIds?: number[]): SQL | undefined {
  const queue = unindexed(tickets.queueId);
  if (can(user.profile, "tickets-manager:showall"))
    return queueIds ? or(inArray(queue, queueIds), isNull(queue)) : undefined;
  const allowed = queueIds ? queueIds.filter((q) => user.queueIds.includes(q)) : user.queueIds;
  return or(inArray(queue, allowed), isNull(queue), eq(unindexed(tickets.userId), user.id));
}

type TicketPage = TicketPageDto;
/** A list's page before its tickets are serialised. */
type RowPage = Omit<TicketPage, "tickets"> & { rows: TicketRow[] };
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
 * together, so each relation of all of them is one query.
 */
export async function listsOfTickets(
  db: Db,
  user: AuthUser,
  lists: TicketListParams[],
  timeZone: string,
  known?: KnownForTicketDtos,
): Promise<TicketPage[]> {
  const pages = await Promise.all(lists.map((params) => ticketRowPage(db, user, params, timeZone)));
  const dtos = await toTicketDtos(
    db,
    pages.flatMap((page) => page.rows),
    known,
  );
  let at = 0;
  return await Promise.all(
    pages.map(({ rows, ...page }, i) => {
      const tickets = dtos.slice(at, (at += rows.length));
      const search = normalizeSearch(lists[i]!.searchParam);
      return search ? withSearchMatches(db, { ...page, tickets }, search) : { ...page, tickets };
    }),
  );
}

async function ticketRowPage(db: Db, user: AuthUser, params: TicketListParams, timeZone: string): Promise<RowPage> {
  const search = normalizeSearch(params.searchParam);
  const rareTags = await fewTagged(db, params.tags);
  const where = await ticketFilter(db, user, params, timeZone, rareTags);
  const { before } = params;
  const offset = before ? 0 : pageWindow(params.pageNumber, TICKET_PAGE_SIZE).offset;
  if (search) {
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
  if (rareTags) return await listFromSet(db, where, before, offset);
  const showAll = params.showAll && can(user.profile, "tickets-manager:showall");
  if (!params.status && !showAll) {
    // "Mine or pending" across statuses: each status is one index range in page order, merged here.
    const parts = await Promise.all(
      STATUSES.map((status) => ticketFilter(db, user, { ...params, status }, timeZone, rareTags)),
    );
    const read = await Promise.all(
      parts.map((part) =>
        Promise.all([pageOrder(db, afterTicket(part, before), offset + TICKET_PAGE_SIZE + 1), cappedCount(db, part)]),
      ),
    );
    const ordered = read.flatMap(([rows]) => rows);
    const counted = read.reduce((n, [, c]) => n + c, 0);
    const ids = ordered.sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id).map((t) => t.id);
    return { ...(await pageOf(db, ids, offset)), count: Math.min(counted, TICKET_COUNT_CAP) };
  }
  // With many tag carriers the page is picked from index entries alone (the carriers are matched against the
  // page-order index, which holds the order), and only its rows are then read.
  if (params.tags?.length) {
    const count = cappedCount(
      db,
      tabHoldsMost(params, showAll) ? await ticketFilter(db, user, params, timeZone, true) : where,
    );
    const ids = (await pageOrder(db, afterTicket(where, before), offset + TICKET_PAGE_SIZE + 1)).map((t) => t.id);
    return { ...(await pageOf(db, ids, offset)), count: await count };
  }
  const count = cappedCount(db, where);
  const rows = await ticketPageQuery(db, afterTicket(where, before))
    .limit(TICKET_PAGE_SIZE + 1)
    .offset(offset);
  const page = rows.slice(0, TICKET_PAGE_SIZE);
  return { rows: page, count: await count, hasMore: rows.length > page.length };
}

const STATUSES: TicketStatus[] = ["open", "pending", "closed"];

/**
 * Whether the tab holds most of the inbox (every ticket of the picked queues, or the closed ones): its count with a
 * common tag then looks the tag's carriers up, each once, rather than testing the tab's tickets until the cap is
 * met (a tag on 2,500 of 100,000 tickets: 2,500 lookups against 40,000 entries read). The open and pending tabs are
 * a few thousand tickets, cheaper to test than the carriers are to look up.
 */
const tabHoldsMost = (params: TicketListParams, showAll: boolean | undefined) =>
  Boolean(showAll) && (!params.status || params.status === "closed");

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
 * A list read from a set of ids (search hits, tickets carrying tags): each ticket of the set is looked up once,
 * for its place and filters together, and the page's ids come back with how many matched in all.
 */
async function listFromSet(db: Db, where: SQL | undefined, before: Before, offset: number): Promise<RowPage> {
  const found = await db
    .select({ id: tickets.id, total: sql<number>`count(*) over ()` })
    .from(tickets)
    .where(afterTicket(where, before))
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    // Written into the SQL, not bound: PostgreSQL's plan for a prepared statement, made without the limit's value,
    // would walk the whole list in page order and test each ticket against the set (25 ms at 100,000 tickets)
    // instead of looking the set's tickets up (5 ms).
    .limit(sql.raw(String(TICKET_PAGE_SIZE + 1)) as unknown as number)
    .offset(offset);
  // After a cursor (or past the end) the rows above do not tell the whole set's size, so it is counted apart.
  const total = before || !found.length ? await cappedCount(db, where) : found[0]!.total;
  return {
    ...(await pageOf(
      db,
      found.map((t) => t.id),
      0,
    )),
    count: Math.min(total, TICKET_COUNT_CAP),
  };
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
  return await db
    .select({ id: tickets.id, updatedAt: epochMs(tickets.updatedAt) })
    .from(tickets)
    .where(where)
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .limit(limit);
}

/** The page at `offset` of tickets listed by id in page order, and whether more follow. */
async function pageOf(db: Db, ids: number[], offset: number) {
  const slice = ids.slice(offset, offset + TICKET_PAGE_SIZE + 1);
  const pageIds = slice.slice(0, TICKET_PAGE_SIZE);
  const rows = pageIds.length ? await db.select().from(tickets).where(inArray(tickets.id, pageIds)) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { rows: pageIds.flatMap((id) => byId.get(id) ?? []), hasMore: slice.length > pageIds.length };
}

/** `where` limited to the tickets after `before` in page order (newest activity first), when given. */
export function afterTicket(where: SQL | undefined, before: TicketListParams["before"]): SQL | undefined {
  if (!before) return where;
  return and(where, sql`(${tickets.updatedAt}, ${tickets.id}) < (${storedInstant(before.updatedAt)}, ${before.id})`);
}

/** How many tickets match `where`, counting no further than TICKET_COUNT_CAP. */
export async function cappedCount(db: Db, where: SQL | undefined): Promise<number> {
  return (await first(ticketCountQuery(db, where)))?.n ?? 0;
}

/** The count query of the ticket list (exposed so its query plan can be checked). */
export function ticketCountQuery(db: Db, where: SQL | undefined) {
  const capped = db.select({ one: sql`1` }).from(tickets).where(where).limit(TICKET_COUNT_CAP).as("capped");
  return db.select({ n: count() }).from(capped);
}

/** The page query of the ticket list, newest activity first (exposed so its query plan can be checked). */
export function ticketPageQuery(db: Db, where: SQL | undefined) {
  return db.select().from(tickets).where(where).orderBy(desc(tickets.updatedAt), desc(tickets.id));
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
): Promise<SQL | undefined> {
  const conditions: (SQL | undefined)[] = [visibleTickets(user, params.queueIds)];
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
        ? eq(pinned(tickets.userId), user.id)
        : or(eq(unindexed(tickets.userId), user.id), eq(unindexed(tickets.status), "pending")),
    );
  if (params.status) conditions.push(eq(pinned(tickets.status), params.status));
  // Few tickets are snoozed at once: the test is made on each entry the list reads, never through an index.
  conditions.push(
    params.snoozed ? sql`${unindexed(tickets.snoozedUntil)} is not null` : isNull(unindexed(tickets.snoozedUntil)),
  );
  if (search) {
    await indexNewMessages(db);
    await indexNewContacts(db);
    conditions.push(searchSql().amongHits(tickets.id, ticketSearch(search)));
  }
  if (params.date) {
    const [start, end] = dayRangeParam(params.date, timeZone, "date");
    conditions.push(gte(tickets.createdAt, new Date(start)), lt(tickets.createdAt, new Date(end)));
  }
  if (params.updatedAt) {
    const [start, end] = dayRangeParam(params.updatedAt, timeZone, "updatedAt");
    conditions.push(gte(tickets.updatedAt, new Date(start)), lt(tickets.updatedAt, new Date(end)));
  }
  // Said exactly as the unread (resp. breached) index's condition, which is how SQLite knows that index holds every match.
  if (params.withUnreadMessages) conditions.push(sql`unread_messages > 0`);
  if (params.slaBreached)
    conditions.push(sql`(first_response_breached = true OR resolution_breached = true) AND status <> 'closed'`);
  if (tagIds.length) {
    const carriers = carrying(db, tagIds);
    // Many carriers: each page-order index entry is tested against them rather than each carrier looked up.
    conditions.push(rareTags ? searchSql().amongHits(tickets.id, carriers) : inArray(unindexed(tickets.id), carriers));
  }
  return and(...conditions);
}
