import { and, count, desc, eq } from "drizzle-orm";
import { first } from "../../db/client";
import { hasMore, PAGE_SIZE, pageWindow } from "../../db/paging";
import { tickets } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { notFound } from "../../errors";
import type { AuthUser } from "../../shared/auth-user";
import type { ContactTicketPageDto, ContactTicketQuery } from "../../shared/contracts/tickets";
import { findContact } from "../contacts/lookup";
import { privateNoteCounts } from "../messages/note-counts";
import { visibleTickets } from "./list";
import { toTicketDtos } from "./serialize";

/**
 * GET /contacts/:id/tickets: the contact's tickets the user may see in the ticket list (queue isolation for
 * agents), most recently active first, PAGE_SIZE a page, each with its count of private notes. 404 for an
 * unknown contact.
 */
export async function listContactTickets(
  deps: Pick<AppDeps, "db">,
  user: AuthUser,
  contactId: number,
  query: ContactTicketQuery,
): Promise<ContactTicketPageDto> {
  const { db } = deps;
  if (!(await findContact(db, contactId))) throw notFound("ERR_NO_CONTACT_FOUND");
  const where = and(eq(tickets.contactId, contactId), visibleTickets(user));
  const { limit, offset } = pageWindow(query.pageNumber, PAGE_SIZE);
  const rows = await db
    .select()
    .from(tickets)
    .where(where)
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .limit(limit)
    .offset(offset);
  const total = (await first(db.select({ n: count() }).from(tickets).where(where)))?.n ?? 0;
  const notes = await privateNoteCounts(
    db,
    rows.map((r) => r.id),
  );
  const dtos = await toTicketDtos(db, rows);
  return {
    tickets: dtos.map((t) => ({ ...t, notes: notes.get(t.id) ?? 0 })),
    count: total,
    hasMore: hasMore(total, offset, rows.length),
  };
}
