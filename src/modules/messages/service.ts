import type { MessageRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, FieldError, forbidden, notFound } from "../../errors";
import { contactAddress } from "../../shared/address";
import { checkUpload, storeUpload } from "../media/service";
import { contactChat } from "../contacts/lookup";
import { assertMaySend, canSeeTicket } from "../tickets/access";
import { findTicket, ticketsOfContact, ticketsOfTicketsContact } from "../tickets/records";
import { loadTicketDto, ticketCard, ticketCardRelations } from "../tickets/serialize";
import { isRead, markTicketRead } from "../tickets/read-marking";
import { getTicketRow } from "../tickets/service";
import type { AuthUser } from "../../shared/auth-user";
import type { TemplateMessage } from "../../channels/types";
import { cancelUnsent } from "./outbox";
import { removeNote, storeNote } from "./notes";
import { MESSAGE_PAGE_SIZE, historyPage } from "./history-page";
import { findMessage, hasUnreadMessages } from "./records";
import { searchHistory } from "./search";
import { checkedTemplate } from "./templates";
import { resendMessage, sendTicketMedia, sendTicketTemplate, sendTicketText } from "./send";
import { toMessageDtos } from "./dtos";
import { markRevoked, type MessageDto } from "./store";

export const MAX_BODY = 65_536;

/**
 * GET /messages/:ticketId: the contact's history across their tickets the user may see, 20 per page, newest
 * page first but each page ascending. Opening marks the ticket read.
 */
export async function listMessages(deps: AppDeps, user: AuthUser, ticketId: number, pageNumber = 1) {
  // Reads that do not depend on each other go side by side: on PostgreSQL each is a round trip of its own.
  const [contactTickets, messagesUnread] = await Promise.all([
    ticketsOfTicketsContact(deps.db, ticketId),
    hasUnreadMessages(deps.db, ticketId),
  ]);
  const ticket = contactTickets.find((t) => t.id === ticketId);
  if (!ticket) throw notFound("ERR_NO_TICKET_FOUND");
  if (!canSeeTicket(user, ticket)) throw forbidden();
  const visible = contactTickets.filter((t) => canSeeTicket(user, t));
  const visibleIds = visible.map((t) => t.id);
  const total = visible.reduce((sum, t) => sum + t.messageCount, 0);
  const offset = MESSAGE_PAGE_SIZE * (Math.max(1, Math.floor(pageNumber)) - 1);
  // A ticket with something to mark read shows its page and its card as the marking leaves them: they are read
  // after it (the card's relations beside it). One already read is not written: its page is read at once, and its
  // card from the row just read. The count is the visible tickets' kept counts, from the rows already read.
  const read = isRead(ticket, { messagesUnread });
  const [, cardRelations, pageOfRead] = await Promise.all([
    markTicketRead(deps, ticket, { messagesUnread }),
    ticketCardRelations(deps.db, ticket),
    read ? historyPage(deps.db, visibleIds, offset) : undefined,
  ]);
  const [{ rows, reactions }, ticketDto] = await Promise.all([
    pageOfRead ?? historyPage(deps.db, visibleIds, offset),
    read ? ticketCard(deps.db, ticket, cardRelations) : loadTicketDto(deps.db, ticketId, cardRelations),
  ]);
  return {
    messages: await toMessageDtos(deps.db, rows.reverse(), (quoted) => canSeeTicket(user, quoted), {
      contacts: ticketDto.contact ? [ticketDto.contact] : [],
      reactions,
    }),
    ticket: ticketDto,
    count: total,
    hasMore: total > offset + rows.length,
  };
}

/**
 * GET /messages/:ticketId/search?q=: the messages matching `q` in the history GET /messages/:ticketId shows
 * (private notes too), under the same access rule; reading search results does not mark the ticket read.
 */
export async function searchMessages(deps: AppDeps, user: AuthUser, ticketId: number, q: string) {
  const ticket = await getTicketRow(deps, ticketId);
  if (!canSeeTicket(user, ticket)) throw forbidden();
  const visibleIds = (await ticketsOfContact(deps.db, ticket.contactId))
    .filter((t) => canSeeTicket(user, t))
    .map((t) => t.id);
  return await searchHistory(deps.db, visibleIds, q);
}

export interface PanelMessage {
  body?: string;
  quotedMsgId?: number;
  files?: (Blob & { name?: string })[];
  /** A private note for the team instead of a message to the contact (text only). */
  isPrivate?: boolean;
}

/**
 * POST /messages/:ticketId: only on an open ticket that is the user's (or by an admin). Files are all checked
 * (type and size) before the first is written; each is then written and sent as its own message, the body as
 * the first caption. Agent text is sent as typed (templates are not rendered). Returns the stored messages:
 * sent, failed (shown so, to be retried), or queued until the connection is back. A private note is only
 * stored (see storeNote), with the same permission as sending; it leaves the ticket's unread count alone.
 */
export async function sendFromPanel(
  deps: AppDeps,
  user: AuthUser,
  ticketId: number,
  input: PanelMessage,
): Promise<MessageDto[]> {
  const ticket = await getTicketRow(deps, ticketId);
  assertMaySend(user, ticket);
  const body = input.body ?? "";
  if (body.length > MAX_BODY) throw new FieldError("body", "max");
  const files = input.files ?? [];
  if (!files.length && !body.trim()) throw new FieldError("body", "required");
  if (input.isPrivate) {
    if (files.length) throw new AppError("ERR_INVALID_BODY");
    const note = await storeNote(deps, ticket, user, body, input.quotedMsgId);
    return await toMessageDtos(deps.db, [note], (quoted) => canSeeTicket(user, quoted));
  }
  const uploads = await Promise.all(files.map((file) => checkUpload(deps, file)));
  const sent: MessageRow[] = [];
  if (uploads.length) {
    let current = ticket;
    for (const [i, upload] of uploads.entries()) {
      sent.push(
        await sendTicketMedia(deps, current, await storeUpload(deps, upload), i === 0 ? body.trim() : "", {
          userId: user.id,
          agentId: user.id,
        }),
      );
      current = await getTicketRow(deps, ticketId);
    }
  } else {
    sent.push(
      await sendTicketText(deps, ticket, body, {
        quotedMessageId: input.quotedMsgId,
        userId: user.id,
        agentId: user.id,
        draftOf: user.id,
        quotedBy: user,
      }),
    );
  }
  await markTicketRead(deps, await getTicketRow(deps, ticketId));
  return await toMessageDtos(deps.db, sent, (quoted) => canSeeTicket(user, quoted));
}

/**
 * POST /messages/:ticketId/template: one of the connection's approved templates (the Cloud API's only way to write
 * first, or after the customer's 24-hour window), with every placeholder filled; same permission as sending.
 */
export async function sendTemplateFromPanel(
  deps: AppDeps,
  user: AuthUser,
  ticketId: number,
  input: TemplateMessage,
): Promise<MessageDto[]> {
  const ticket = await getTicketRow(deps, ticketId);
  assertMaySend(user, ticket);
  if (ticket.whatsappId == null) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  const { template, text } = await checkedTemplate(deps, ticket.whatsappId, input);
  const sent = await sendTicketTemplate(deps, ticket, template, text, { userId: user.id, agentId: user.id });
  await markTicketRead(deps, await getTicketRow(deps, ticketId));
  return await toMessageDtos(deps.db, [sent], (quoted) => canSeeTicket(user, quoted));
}

/**
 * POST /messages/:id/retry: sends a message that failed again (see resendMessage), for whoever may send on
 * its ticket. A message already queued or being sent again is returned as it is; one whose connection was
 * removed while it waited is queued on the ticket's connection.
 */
export async function retryMessage(deps: AppDeps, user: AuthUser, messageId: number): Promise<MessageDto> {
  const message = await findMessage(deps.db, messageId);
  if (!message) throw notFound("ERR_NO_MESSAGE_FOUND");
  const ticket = await getTicketRow(deps, message.ticketId);
  assertMaySend(user, ticket);
  const orphan = message.sendState === "queued" && message.whatsappId == null;
  let row = message;
  if (message.sendState === "failed" || orphan) row = await resendMessage(deps, ticket, message, user.id);
  else if (message.sendState !== "queued" && message.sendState !== "sending")
    throw new AppError("ERR_MESSAGE_NOT_FAILED");
  return (await toMessageDtos(deps.db, [row], (quoted) => canSeeTicket(user, quoted)))[0]!;
}

/**
 * DELETE /messages/:id: only own messages. A private note, or one not handed to the network yet (queued or
 * failed), is removed (with its file). Otherwise it is deleted for everyone on the network, then marked deleted.
 */
export async function deleteMessage(deps: AppDeps, user: AuthUser, messageId: number) {
  const found = async () => {
    const message = await findMessage(deps.db, messageId);
    const ticket = message && (await findTicket(deps.db, message.ticketId));
    const chat = ticket && (await contactChat(deps.db, ticket.contactId));
    return chat ? { message, queueId: ticket.queueId, userId: ticket.userId, ...chat } : undefined;
  };
  let row = await found();
  if (!row) throw notFound("ERR_NO_MESSAGE_FOUND");
  if (!canSeeTicket(user, row)) throw forbidden();
  if (!row.message.fromMe) throw new AppError("ERR_DELETE_WAPP_MSG");
  if (row.message.isDeleted) return;
  if (row.message.isPrivate && (await removeNote(deps, messageId))) return;
  // Being handed to the network right now: whether it is cancelled or deleted for everyone depends on how that ends.
  if (row.message.sendState === "sending" && row.message.whatsappId != null) {
    await deps.outbox.idle(row.message.whatsappId);
    row = await found();
    if (!row) return;
  }
  if (await cancelUnsent(deps, messageId)) return;
  const { message } = row;
  if (message.whatsappId == null) throw new AppError("ERR_DELETE_WAPP_MSG");
  try {
    await deps.channels.deleteForEveryone(message.whatsappId, {
      id: message.wid,
      chatId: contactAddress(row),
      isGroup: row.isGroup,
      fromMe: true,
      participant: message.participant,
    });
  } catch (error) {
    deps.log.warn("delete for everyone failed", { messageId, error });
    throw error instanceof AppError && error.code === "ERR_WAPP_NOT_INITIALIZED"
      ? error
      : new AppError("ERR_DELETE_WAPP_MSG");
  }
  await markRevoked(deps, message.whatsappId, message.wid);
}
