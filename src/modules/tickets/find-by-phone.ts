import type { AppDeps } from "../../deps";
import { notFound } from "../../errors";
import type { AuthUser } from "../../shared/auth-user";
import { contactIdByNumbers } from "../contacts/lookup";
import { canSeeTicket } from "./access";
import { ticketsOfContact } from "./records";

/**
 * GET /ticketfind/:phone: the contact by its digits (also the Brazilian number with or without
 * the 9th digit), then its latest active ticket the caller may see, else its latest ticket the caller may see.
 */
export async function findTicketByPhone(deps: AppDeps, actor: AuthUser, phone: string): Promise<{ ticketId: number }> {
  const digits = phone.replace(/\D/g, "");
  if (digits.length < 8) throw notFound("ERR_NO_TICKET_FOUND");
  const candidates = [digits];
  const br = digits.match(/^55(\d{2})(9?)(\d{8})$/);
  if (br) candidates.push(`55${br[1]}${br[2] ? "" : "9"}${br[3]}`);
  const contactId = await contactIdByNumbers(deps.db, candidates);
  if (contactId === undefined) throw notFound("ERR_NO_TICKET_FOUND");
  const rows = await ticketsOfContact(deps.db, contactId);
  const visible = rows.filter((r) => canSeeTicket(actor, r));
  const best = visible.find((r) => r.status !== "closed") ?? visible[0];
  if (!best) throw notFound("ERR_NO_TICKET_FOUND");
  return { ticketId: best.id };
}
