import { and, desc, eq } from "drizzle-orm";
import { type Db, first, type Writer } from "../../db/client";
import { ticketDrafts, tickets } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { forbidden, notFound } from "../../errors";
import type { AuthUser } from "../../shared/auth-user";
import type { TicketDraftDto } from "../../shared/contracts/tickets";
import { canSeeTicket } from "./access";
import { findTicket } from "./records";

/** How many drafts the ticket list hears about at once, the latest first. */
const LISTED_DRAFTS = 200;

/** GET /tickets/:id/draft: the user's unsent text of a ticket they may see (empty when none). */
export async function readDraft(deps: Pick<AppDeps, "db">, user: AuthUser, ticketId: number): Promise<TicketDraftDto> {
  await visibleTicket(deps.db, user, ticketId);
  const row = await first(
    deps.db
      .select({ body: ticketDrafts.body, updatedAt: ticketDrafts.updatedAt })
      .from(ticketDrafts)
      .where(and(eq(ticketDrafts.ticketId, ticketId), eq(ticketDrafts.userId, user.id))),
  );
  return { ticketId, body: row?.body ?? "", updatedAt: row?.updatedAt ?? null };
}

/** PUT /tickets/:id/draft: keeps the user's text for the ticket; a blank text deletes the draft. */
export async function saveDraft(
  deps: Pick<AppDeps, "db" | "clock">,
  user: AuthUser,
  ticketId: number,
  body: string,
): Promise<TicketDraftDto> {
  await visibleTicket(deps.db, user, ticketId);
  if (!body.trim()) {
    await clearDraft(deps.db, ticketId, user.id);
    return { ticketId, body: "", updatedAt: null };
  }
  const updatedAt = new Date(deps.clock.now());
  await deps.db
    .insert(ticketDrafts)
    .values({ ticketId, userId: user.id, body, updatedAt })
    .onConflictDoUpdate({ target: [ticketDrafts.ticketId, ticketDrafts.userId], set: { body, updatedAt } });
  return { ticketId, body, updatedAt };
}

/** DELETE /tickets/:id/draft. */
export async function deleteDraft(
  deps: Pick<AppDeps, "db">,
  user: AuthUser,
  ticketId: number,
): Promise<TicketDraftDto> {
  await visibleTicket(deps.db, user, ticketId);
  await clearDraft(deps.db, ticketId, user.id);
  return { ticketId, body: "", updatedAt: null };
}

/** Removes a user's draft of a ticket (also inside the transaction that stores the message it became). */
export async function clearDraft(db: Writer, ticketId: number, userId: number): Promise<void> {
  await db.delete(ticketDrafts).where(and(eq(ticketDrafts.ticketId, ticketId), eq(ticketDrafts.userId, userId)));
}

/** GET /tickets/drafts: the user's drafts of the tickets they may still see, the latest first, in one query. */
export async function listDrafts(deps: Pick<AppDeps, "db">, user: AuthUser): Promise<TicketDraftDto[]> {
  const rows = await deps.db
    .select({
      ticketId: ticketDrafts.ticketId,
      body: ticketDrafts.body,
      updatedAt: ticketDrafts.updatedAt,
      queueId: tickets.queueId,
      userId: tickets.userId,
    })
    .from(ticketDrafts)
    .innerJoin(tickets, eq(tickets.id, ticketDrafts.ticketId))
    .where(eq(ticketDrafts.userId, user.id))
    .orderBy(desc(ticketDrafts.updatedAt))
    .limit(LISTED_DRAFTS);
  return rows
    .filter((row) => canSeeTicket(user, row))
    .map(({ ticketId, body, updatedAt }) => ({ ticketId, body, updatedAt }));
}

/** Drafts follow the ticket's reading rule: 404 for a missing ticket, 403 for one the user may not see. */
async function visibleTicket(db: Db, user: AuthUser, ticketId: number) {
  const ticket = await findTicket(db, ticketId);
  if (!ticket) throw notFound("ERR_NO_TICKET_FOUND");
  if (!canSeeTicket(user, ticket)) throw forbidden();
}
