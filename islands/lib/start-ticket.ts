import type { TFunction } from "i18next";
import { ApiError, callApi } from "./api";
import { errorText } from "./errors";
import { openTicket } from "./ticket-nav";
import { toast } from "./toast";

/**
 * Starts an open ticket of `userId` with a contact and opens it. When the contact already has an open or waiting
 * ticket, that one opens instead: the server names it to admins, and for an agent it is looked up among the
 * contact's tickets the agent may see. Returns whether a ticket opened (else the error was shown).
 */
export async function startTicketWith(t: TFunction, contactId: number, userId: number): Promise<boolean> {
  try {
    const ticket = await callApi("POST /tickets", { body: { contactId, userId, status: "open" } });
    openTicket(ticket.id);
    return true;
  } catch (error) {
    const existing =
      error instanceof ApiError && error.code === "ERR_OTHER_OPEN_TICKET" && (await openTicketOf(error, contactId));
    if (!existing) {
      toast("error", errorText(t, error));
      return false;
    }
    toast("info", t("agent.contacts.openedExisting", { id: existing }));
    openTicket(existing);
    return true;
  }
}

/** The id of the contact's open or waiting ticket: from the error, else from the contact's tickets (null: none seen). */
async function openTicketOf(error: ApiError, contactId: number): Promise<number | null> {
  if (typeof error.details.ticketId === "number") return error.details.ticketId;
  try {
    const page = await callApi("GET /contacts/:id/tickets", { params: { id: contactId } });
    return page.tickets.find((x) => x.status !== "closed")?.id ?? null;
  } catch {
    return null;
  }
}
