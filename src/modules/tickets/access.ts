import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { tickets } from "../../db/schema";
import { can } from "../../shared/permissions";
import type { AuthUser } from "../users/service";

/**
 * Queue isolation: a user with `tickets-manager:showall` sees every ticket; an agent sees tickets of their
 * queues, tickets without a queue, and tickets assigned to them.
 */
export function canSeeTicket(user: Pick<AuthUser, "id" | "profile" | "queueIds">, ticket: { queueId: number | null; userId: number | null }) {
  if (can(user.profile, "tickets-manager:showall")) return true;
  if (ticket.userId === user.id) return true;
  return ticket.queueId == null || user.queueIds.includes(ticket.queueId);
}

/** True when the ticket exists and the user may see it. */
export function userMaySeeTicketId(db: Db, user: AuthUser, ticketId: number): boolean {
  const ticket = db.select({ queueId: tickets.queueId, userId: tickets.userId }).from(tickets).where(eq(tickets.id, ticketId)).get();
  return !!ticket && canSeeTicket(user, ticket);
}
