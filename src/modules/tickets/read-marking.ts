import { atomically } from "../../db/client";
import { and, eq, ne, sql } from "drizzle-orm";
import { prepared } from "../../db/prepared";
import { type TicketRow, tickets } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { contactAddress } from "../../shared/address";
import { contactChat } from "../contacts/lookup";
import { markMessagesRead } from "../messages/records";

/**
 * Marks a ticket read: unread 0, its messages read, `updateUnread` to its lists and notification rooms,
 * and a read receipt for the contact's unread messages when the connection runs (failures only logged).
 * `messagesUnread: false`: the caller found none of its messages unread, so a ticket whose row says it is read
 * is not written at all (its transaction was three round trips on PostgreSQL).
 */
export async function markTicketRead(deps: AppDeps, ticket: TicketRow, known: { messagesUnread?: boolean } = {}) {
  const unread = isRead(ticket, known)
    ? []
    : // Sent together: PostgreSQL runs them in turn on the transaction's connection, one round trip for both.
      (
        await atomically(deps.db, (tx) =>
          Promise.all([unreadReset(tx).run({ id: ticket.id }), markMessagesRead(tx, ticket.id)]),
        )
      )[1];
  deps.events.emit("ticket.read", { ticket });
  const refs = unread.filter((m) => !m.fromMe && m.whatsappId === ticket.whatsappId);
  if (!refs.length || ticket.whatsappId == null || !(await deps.channels.isRunning(ticket.whatsappId))) return;
  const contact = await contactChat(deps.db, ticket.contactId);
  if (!contact) return;
  deps.channels
    .markRead(ticket.whatsappId, contactAddress(contact), contact.isGroup, refs)
    .catch((error) => deps.log.warn("read receipt failed", { ticketId: ticket.id, error }));
}

/** Whether opening `ticket` has nothing to mark read (see markTicketRead). */
export const isRead = (ticket: TicketRow, known: { messagesUnread?: boolean }) =>
  ticket.unreadMessages === 0 && known.messagesUnread === false;

/**
 * The ticket's unread count back to 0 when it is not already: opening a read ticket writes nothing (each open
 * wrote the row again, a new row version on PostgreSQL). Reading is not activity: `updatedAt` orders the lists and
 * shows as the ticket's time, so it stays as it was (the column otherwise takes the time of any update).
 */
const unreadReset = prepared((db) =>
  db
    .update(tickets)
    .set({ unreadMessages: 0, updatedAt: sql`${tickets.updatedAt}` })
    .where(and(eq(tickets.id, sql.placeholder("id")), ne(tickets.unreadMessages, 0)))
    .prepare(),
);
