import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { tickets, userQueues, users } from "../../db/schema";
import { can } from "../../shared/permissions";
import type { AuthUser } from "../../shared/auth-user";

type Viewer = Pick<AuthUser, "id" | "profile" | "queueIds">;
type Visibility = { queueId: number | null; userId: number | null };

/**
 * Queue isolation: a user with `tickets-manager:showall` sees every ticket; an agent sees tickets of their
 * queues, tickets without a queue, and tickets assigned to them.
 */
export function canSeeTicket(user: Viewer, ticket: Visibility) {
  if (can(user.profile, "tickets-manager:showall")) return true;
  if (ticket.userId === user.id) return true;
  return ticket.queueId == null || user.queueIds.includes(ticket.queueId);
}

/** True when the ticket exists and the user may see it. */
export function userMaySeeTicketId(db: Db, user: AuthUser, ticketId: number): boolean {
  const ticket = db
    .select({ queueId: tickets.queueId, userId: tickets.userId })
    .from(tickets)
    .where(eq(tickets.id, ticketId))
    .get();
  return !!ticket && canSeeTicket(user, ticket);
}

/**
 * True when everyone who may see `ticket` may also see `other`. A ticket's events go to rooms, not to
 * people, so what they say about another ticket (a quoted message) must be visible to all of that ticket's
 * viewers: admins, the agents of its queue (everyone when it has none) and its assignee.
 */
export function everyViewerMaySee(db: Pick<Db, "select">, ticket: Visibility, other: Visibility): boolean {
  if (other.queueId == null) return true;
  if (ticket.queueId !== other.queueId) return false;
  return ticket.userId == null || ticket.userId === other.userId || assigneeMaySee(db, ticket.userId, other);
}

function assigneeMaySee(db: Pick<Db, "select">, userId: number, ticket: Visibility): boolean {
  const user = db.select({ profile: users.profile }).from(users).where(eq(users.id, userId)).get();
  if (!user) return true;
  const queueIds = db
    .select({ queueId: userQueues.queueId })
    .from(userQueues)
    .where(eq(userQueues.userId, userId))
    .all()
    .map((r) => r.queueId);
  return canSeeTicket({ id: userId, profile: user.profile, queueIds }, ticket);
}
