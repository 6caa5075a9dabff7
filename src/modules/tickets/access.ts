import type { Db } from "../../db/client";
import { AppError, forbidden } from "../../errors";
import { can, isAdmin } from "../../shared/permissions";
import type { AuthUser } from "../../shared/auth-user";
import { viewerOf } from "../users/lookup";
import { findTicket } from "./records";

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

/** Whether `user` may send on the ticket: theirs (or any, for an admin), visible to them, and open. */
export function assertMaySend(user: Viewer, ticket: Visibility & { status: string }) {
  if (!canSeeTicket(user, ticket) || (ticket.userId !== user.id && !isAdmin(user.profile))) throw forbidden();
  if (ticket.status !== "open") throw new AppError("ERR_TICKET_NOT_OPEN");
}

/** True when the ticket exists and the user may see it. */
export async function userMaySeeTicketId(db: Db, user: AuthUser, ticketId: number): Promise<boolean> {
  const ticket = await findTicket(db, ticketId);
  return !!ticket && canSeeTicket(user, ticket);
}

/**
 * True when everyone who may see `ticket` may also see `other`. A ticket's events go to rooms, not to
 * people, so what they say about another ticket (a quoted message) must be visible to all of that ticket's
 * viewers: admins, the agents of its queue (everyone when it has none) and its assignee.
 */
export async function everyViewerMaySee(
  db: Pick<Db, "select">,
  ticket: Visibility,
  other: Visibility,
): Promise<boolean> {
  if (other.queueId == null) return true;
  if (ticket.queueId !== other.queueId) return false;
  return ticket.userId == null || ticket.userId === other.userId || (await assigneeMaySee(db, ticket.userId, other));
}

async function assigneeMaySee(db: Pick<Db, "select">, userId: number, ticket: Visibility): Promise<boolean> {
  const viewer = await viewerOf(db, userId);
  return !viewer || canSeeTicket(viewer, ticket);
}
