import type { MessageRow, TicketRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, forbidden, notFound } from "../../errors";
import type { AuthUser } from "../../shared/auth-user";
import { isAdmin } from "../../shared/permissions";
import { contactExists } from "../contacts/lookup";
import { mediaFileExists, shareMediaFile } from "../media/files";
import { canSeeTicket } from "../tickets/access";
import { activeTicketsOfContact } from "../tickets/records";
import { createTicket, getTicketRow } from "../tickets/service";
import { toMessageDtos } from "./dtos";
import { findMessage } from "./records";
import { sendTicketMedia, sendTicketText } from "./send";
import type { MessageDto } from "./store";

/**
 * POST /messages/:id/forward: a copy of a message the user may see (a text, or a file with its caption) goes to
 * each contact, on the ticket the user may send on (their open one, any open one for an admin), else on a new
 * ticket of theirs, refused with ERR_OTHER_OPEN_TICKET while someone else holds the contact (as "Start ticket").
 * Each copy is an agent's message sent through the outbox: stored first, sent once, also after a restart. A file
 * is not read again: the copy owns a second name of the stored file.
 */
export async function forwardMessage(
  deps: AppDeps,
  user: AuthUser,
  messageId: number,
  contactIds: number[],
): Promise<MessageDto[]> {
  const message = await findMessage(deps.db, messageId);
  if (!message) throw notFound("ERR_NO_MESSAGE_FOUND");
  if (!canSeeTicket(user, await getTicketRow(deps, message.ticketId))) throw forbidden();
  if (!forwardable(deps, message)) throw new AppError("ERR_INVALID_BODY");
  const ids = [...new Set(contactIds)];
  for (const id of ids) if (!(await contactExists(deps.db, id))) throw notFound("ERR_NO_CONTACT_FOUND");
  const targets: TicketRow[] = [];
  for (const id of ids) targets.push(await ticketToSendOn(deps, user, id));
  const sent: MessageRow[] = [];
  for (const ticket of targets) sent.push(await sendCopy(deps, user, ticket, message));
  return await toMessageDtos(deps.db, sent, (quoted) => canSeeTicket(user, quoted));
}

/** Texts, and files still stored; never a note, a deleted message, or a card or a call. */
function forwardable(deps: AppDeps, m: MessageRow): boolean {
  if (m.isDeleted || m.isPrivate) return false;
  if (m.mediaUrl) return !m.mediaState && mediaFileExists(deps, m.mediaUrl);
  return m.mediaType === "chat" && !!m.body.trim();
}

async function ticketToSendOn(deps: AppDeps, user: AuthUser, contactId: number): Promise<TicketRow> {
  const usable = (await activeTicketsOfContact(deps.db, contactId)).find(
    (t) => t.status === "open" && canSeeTicket(user, t) && (t.userId === user.id || isAdmin(user.profile)),
  );
  if (usable) return usable;
  return await getTicketRow(deps, (await createTicket(deps, user, { contactId, status: "open" })).id);
}

async function sendCopy(deps: AppDeps, user: AuthUser, ticket: TicketRow, m: MessageRow): Promise<MessageRow> {
  const opts = { userId: user.id, agentId: user.id };
  if (!m.mediaUrl) return await sendTicketText(deps, ticket, m.body, opts);
  const originalName = m.fileName ?? m.mediaUrl;
  const caption = m.body && m.body !== originalName ? m.body : "";
  const file = { fileName: shareMediaFile(deps, m.mediaUrl), originalName, mimetype: m.mediaMime ?? "" };
  return await sendTicketMedia(deps, ticket, file, caption, opts);
}
