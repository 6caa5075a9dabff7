import { and, count, desc, eq, gte, inArray, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { contacts, ticketTags, tickets } from "../../db/schema";
import { can } from "../../shared/permissions";
import type { TicketStatus } from "../../shared/contracts/tickets";
import { contains, hasMore, normalizeSearch, pageWindow } from "../../db/paging";
import { ticketsWithMatchingMessages } from "../messages/search";
import type { AuthUser } from "../../shared/auth-user";
import { dayRangeParam } from "./day-range";
import { toTicketDtos, type TicketDto } from "./serialize";

export const TICKET_PAGE_SIZE = 40;

export interface TicketListParams {
  status?: TicketStatus;
  searchParam?: string;
  pageNumber?: number;
  date?: string;
  updatedAt?: string;
  showAll?: boolean;
  queueIds?: number[];
  withUnreadMessages?: boolean;
  tags?: number[];
}

/**
 * Queue isolation in SQL: managers see everything (or the queues they picked, plus queue-less tickets);
 * agents see the picked queues intersected with their own, queue-less tickets and tickets assigned to them.
 */
export function visibleTickets(user: AuthUser, queueIds?: number[]): SQL | undefined {
  if (can(user.profile, "tickets-manager:showall"))
    return queueIds ? or(inArray(tickets.queueId, queueIds), isNull(tickets.queueId)) : undefined;
  const allowed = queueIds ? queueIds.filter((q) => user.queueIds.includes(q)) : user.queueIds;
  return or(inArray(tickets.queueId, allowed), isNull(tickets.queueId), eq(tickets.userId, user.id));
}

/** GET /tickets: every filter composes with AND; one query for the page, one for the count, then batch relations. */
export function listTickets(
  db: Db,
  user: AuthUser,
  params: TicketListParams,
  timeZone: string,
): { tickets: TicketDto[]; count: number; hasMore: boolean } {
  const where = ticketFilter(db, user, params, timeZone);
  const { limit, offset } = pageWindow(params.pageNumber, TICKET_PAGE_SIZE);
  const rows = ticketPageQuery(db, where)
    .limit(limit)
    .offset(offset)
    .all()
    .map((r) => r.ticket);
  // Contacts are joined only to search their name and number; counting tens of thousands of tickets through that
  // join costs far more than the count itself.
  const counted = normalizeSearch(params.searchParam)
    ? db.select({ n: count() }).from(tickets).innerJoin(contacts, eq(contacts.id, tickets.contactId))
    : db.select({ n: count() }).from(tickets);
  const total = counted.where(where).get()?.n ?? 0;
  return { tickets: toTicketDtos(db, rows), count: total, hasMore: hasMore(total, offset, rows.length) };
}

/** The page query of the ticket list, newest activity first (exposed so its query plan can be checked). */
export function ticketPageQuery(db: Db, where: SQL | undefined) {
  return db
    .select({ ticket: tickets })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(where)
    .orderBy(desc(tickets.updatedAt), desc(tickets.id));
}

/** The WHERE of the ticket list for this user and these filters. */
export function ticketFilter(db: Db, user: AuthUser, params: TicketListParams, timeZone: string): SQL | undefined {
  const conditions: (SQL | undefined)[] = [visibleTickets(user, params.queueIds)];
  const showAll = params.showAll && can(user.profile, "tickets-manager:showall");
  if (!showAll) conditions.push(or(eq(tickets.userId, user.id), eq(tickets.status, "pending")));
  if (params.status) conditions.push(eq(tickets.status, params.status));
  const search = normalizeSearch(params.searchParam);
  if (search) {
    const byMessage = ticketsWithMatchingMessages(db, search);
    conditions.push(
      or(
        contains(contacts.name, search),
        contains(contacts.number, search),
        byMessage ? inArray(tickets.id, byMessage) : undefined,
      ),
    );
  }
  if (params.date) {
    const [start, end] = dayRangeParam(params.date, timeZone, "date");
    conditions.push(gte(tickets.createdAt, new Date(start)), lt(tickets.createdAt, new Date(end)));
  }
  if (params.updatedAt) {
    const [start, end] = dayRangeParam(params.updatedAt, timeZone, "updatedAt");
    conditions.push(gte(tickets.updatedAt, new Date(start)), lt(tickets.updatedAt, new Date(end)));
  }
  if (params.withUnreadMessages) conditions.push(sql`${tickets.unreadMessages} > 0`);
  const tagIds = [...new Set(params.tags ?? [])];
  if (tagIds.length) {
    const carrying = db
      .select({ ticketId: ticketTags.ticketId })
      .from(ticketTags)
      .where(inArray(ticketTags.tagId, tagIds))
      .groupBy(ticketTags.ticketId)
      .having(sql`count(distinct ${ticketTags.tagId}) = ${tagIds.length}`);
    conditions.push(inArray(tickets.id, carrying));
  }
  return and(...conditions);
}
