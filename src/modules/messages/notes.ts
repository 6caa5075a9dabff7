import { first } from "../../db/client";
import { and, eq } from "drizzle-orm";
import { messages, type MessageRow, type TicketRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import type { AuthUser } from "../../shared/auth-user";
import { findTicket } from "../tickets/records";
import { quoteOf } from "./send";
import { type StoreMessageInput, storeMessage } from "./store";

/**
 * Stores an agent's private note in the ticket's history. It is never handed to the outbox (no send state), so
 * the contact never gets it; it is written by us (`fromMe`) and already read, so it never counts as unread; the
 * ticket's last message and time stay the conversation's. The author's name goes in `senderName`.
 */
export async function storeNote(
  deps: AppDeps,
  ticket: TicketRow,
  author: Pick<AuthUser, "id" | "name" | "profile" | "queueIds">,
  body: string,
  quotedMessageId?: number,
): Promise<MessageRow> {
  const quoted = await quoteOf(deps, ticket, { quotedMessageId, quotedBy: author });
  return await writeNote(deps, ticket, body, {
    senderName: author.name,
    quotedWid: quoted?.whatsappId === ticket.whatsappId ? quoted.wid : null,
    draftOf: author.id,
  });
}

/**
 * Stores a private note the server wrote itself (an AI summary), under `senderName`: like an agent's note, but no
 * one's draft is touched.
 */
export async function storeAutomaticNote(
  deps: Pick<AppDeps, "db" | "events" | "clock">,
  ticket: TicketRow,
  senderName: string,
  body: string,
): Promise<MessageRow> {
  return await writeNote(deps, ticket, body, { senderName });
}

async function writeNote(
  deps: Pick<AppDeps, "db" | "events" | "clock">,
  ticket: TicketRow,
  body: string,
  by: Pick<StoreMessageInput, "senderName" | "quotedWid" | "draftOf">,
): Promise<MessageRow> {
  const input: StoreMessageInput = {
    whatsappId: ticket.whatsappId,
    wid: `note-${crypto.randomUUID()}`,
    ticketId: ticket.id,
    contactId: null,
    body,
    fromMe: true,
    read: true,
    isPrivate: true,
    ...by,
  };
  return (await storeMessage(deps, input)).message;
}

/** Removes a private note (nobody outside the team saw it, so nothing is deleted on the network) and tells its chat. */
export async function removeNote(deps: Pick<AppDeps, "db" | "events">, messageId: number): Promise<boolean> {
  const row = await first(
    deps.db
      .delete(messages)
      .where(and(eq(messages.id, messageId), eq(messages.isPrivate, true)))
      .returning(),
  );
  if (!row) return false;
  const ticket = await findTicket(deps.db, row.ticketId);
  if (ticket) deps.events.emit("message.deleted", { messageId: row.id, ticket });
  return true;
}
