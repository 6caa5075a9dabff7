import { and, asc, count, eq, gte, lt } from "drizzle-orm";
import { first } from "../../db/client";
import { hasMore, PAGE_SIZE, pageWindow } from "../../db/paging";
import { ticketEvents } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { forbidden, notFound } from "../../errors";
import type { AuthUser } from "../../shared/auth-user";
import { instantField } from "../../http/instant-field";
import type { TicketEventPageDto, TicketEventQuery } from "../../shared/contracts/ticket-events";
import { canSeeTicket } from "./access";
import { toTicketEventDtos } from "./history-dtos";
import { findTicket } from "./records";

/**
 * GET /tickets/:id/events: the ticket's history oldest first, PAGE_SIZE a page, under the rule of GET
 * /tickets/:id (404 when it does not exist, 403 when the user may not see it); `from` and `to` narrow it to a
 * span (from inclusive, to exclusive), as the chat asks for the span of the messages it loaded.
 */
export async function listTicketEvents(
  deps: Pick<AppDeps, "db">,
  user: AuthUser,
  ticketId: number,
  query: TicketEventQuery,
): Promise<TicketEventPageDto> {
  const ticket = await findTicket(deps.db, ticketId);
  if (!ticket) throw notFound("ERR_NO_TICKET_FOUND");
  if (!canSeeTicket(user, ticket)) throw forbidden();
  const from = query.from ? new Date(instantField("from", query.from)) : undefined;
  const to = query.to ? new Date(instantField("to", query.to)) : undefined;
  const where = and(
    eq(ticketEvents.ticketId, ticketId),
    from ? gte(ticketEvents.at, from) : undefined,
    to ? lt(ticketEvents.at, to) : undefined,
  );
  const { limit, offset } = pageWindow(query.pageNumber, PAGE_SIZE);
  const rows = await deps.db
    .select()
    .from(ticketEvents)
    .where(where)
    .orderBy(asc(ticketEvents.at), asc(ticketEvents.id))
    .limit(limit)
    .offset(offset);
  const total = (await first(deps.db.select({ n: count() }).from(ticketEvents).where(where)))?.n ?? 0;
  return { events: await toTicketEventDtos(deps.db, rows), count: total, hasMore: hasMore(total, offset, rows.length) };
}
