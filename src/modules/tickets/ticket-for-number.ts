import type { AppDeps } from "../../deps";
import type { TicketRow } from "../../db/tables";
import type { TicketEventCause } from "../../shared/contracts/ticket-events";
import { findOrCreateContact } from "../contacts/find-or-create";
import { findOrCreateTicket } from "./find-or-create";

/**
 * The ticket a message to a phone number goes out on, when the sender is the system (a campaign, the external
 * API): the number's contact, found or created, and its ticket on the connection, found or created.
 */
export async function ticketForNumber(
  deps: AppDeps,
  number: string,
  whatsappId: number,
  cause: TicketEventCause,
): Promise<TicketRow> {
  const contact = await findOrCreateContact(deps, { address: number, isGroup: false });
  return (await findOrCreateTicket(deps, { contactId: contact.id, whatsappId, isGroup: false, cause })).ticket;
}
