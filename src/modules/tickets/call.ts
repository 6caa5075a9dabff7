import type { AppDeps } from "../../deps";
import { forbidden, notFound } from "../../errors";
import type { AuthUser } from "../../shared/auth-user";
import { findConnection } from "../connections/lookup";
import { contactChat } from "../contacts/lookup";
import { canSeeTicket } from "./access";
import { getTicketRow } from "./service";

/**
 * GET /tickets/:id/call: the Wavoip web dialer URL for the ticket's contact. The connection's call token is
 * a secret, so it leaves the server only here, for someone who may see the ticket, when they start a call.
 * 404 ERR_NOT_FOUND when the connection has no token or the contact no number.
 */
export async function callUrl(deps: Pick<AppDeps, "db">, user: AuthUser, ticketId: number): Promise<{ url: string }> {
  const ticket = await getTicketRow(deps, ticketId);
  if (!canSeeTicket(user, ticket)) throw forbidden();
  const token = ticket.whatsappId != null ? (await findConnection(deps.db, ticket.whatsappId))?.wavoip.trim() : "";
  const phone = (await contactChat(deps.db, ticket.contactId))?.number?.replace(/\D/g, "");
  if (!token || !phone) throw notFound("ERR_NOT_FOUND");
  return { url: `https://app.wavoip.com/call?token=${encodeURIComponent(token)}&phone=${encodeURIComponent(phone)}` };
}
