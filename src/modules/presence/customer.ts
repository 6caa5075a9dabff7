import type { PresenceUpdate } from "../../channels/types";
import type { AppDeps } from "../../deps";
import { contactIdByAddress } from "../contacts/lookup";
import { activeTicketsOfContact } from "../tickets/records";

/**
 * A customer's presence reaches the chats open on their active ticket of that connection, through the event bus
 * (browsers on every node): nothing is stored, a presence lives only as long as its chat shows it.
 */
export async function relayCustomerPresence(
  deps: Pick<AppDeps, "db" | "events">,
  connectionId: number,
  update: PresenceUpdate,
) {
  const contactId = await contactIdByAddress(deps.db, update.chatId);
  if (contactId === undefined) return;
  const ticket = (await activeTicketsOfContact(deps.db, contactId)).find((t) => t.whatsappId === connectionId);
  if (ticket) deps.events.emit("chat.presence", { ticket, contactId, state: update.state });
}
