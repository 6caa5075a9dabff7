import { eq } from "drizzle-orm";
import { contacts, whatsapps } from "../../db/schema";
import type { AppDeps } from "../../deps";
import { forbidden, notFound } from "../../errors";
import type { AuthUser } from "../../shared/auth-user";
import { canSeeTicket } from "./access";
import { getTicketRow } from "./service";

/**
 * GET /tickets/:id/call: the Wavoip web dialer URL for the ticket's contact. The connection's call token is
 * a secret, so it leaves the server only here, for someone who may see the ticket, when they start a call.
 * 404 ERR_NOT_FOUND when the connection has no token or the contact no number.
 */
export function callUrl(deps: Pick<AppDeps, "db">, user: AuthUser, ticketId: number): { url: string } {
  const ticket = getTicketRow(deps, ticketId);
  if (!canSeeTicket(user, ticket)) throw forbidden();
  const token =
    ticket.whatsappId != null
      ? deps.db
          .select({ wavoip: whatsapps.wavoip })
          .from(whatsapps)
          .where(eq(whatsapps.id, ticket.whatsappId))
          .get()
          ?.wavoip.trim()
      : "";
  const phone = deps.db
    .select({ number: contacts.number })
    .from(contacts)
    .where(eq(contacts.id, ticket.contactId))
    .get()
    ?.number?.replace(/\D/g, "");
  if (!token || !phone) throw notFound("ERR_NOT_FOUND");
  return { url: `https://app.wavoip.com/call?token=${encodeURIComponent(token)}&phone=${encodeURIComponent(phone)}` };
}
