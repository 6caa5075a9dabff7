import { atomically, first, type Writer } from "../../db/client";
import { eq } from "drizzle-orm";
import { contactExtraInfo, contacts, type ContactRow, type TicketRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { lidAddress } from "../../shared/address";
import { reassignSender } from "../messages/records";
import { reassignContactSchedules } from "../schedules/records";
import { findTickets, lockContactTickets, moveContactTickets } from "../tickets/records";
import { toTicketDtos } from "../tickets/serialize";
import { contactByLid, contactByNumber } from "./lookup";

type Tx = Writer;

/** What one pairing changed, published once its transaction is committed. */
interface Linked {
  contact: ContactRow | undefined;
  changed: boolean;
  removedContactId?: number;
  removedTickets: TicketRow[];
  movedTicketIds: number[];
}

/** The name a LID-only contact gets when the person sent no push name. */
export function lidFallbackName(lid: string): string {
  return lidAddress(lid);
}

/**
 * WhatsApp paired the LID `lid` with the phone number `number` (a mapping update, a contact with its phone, a
 * message carrying both). The contact known only by that LID gets the number; when a contact with the number
 * exists too, the LID-only one is merged into it in one transaction: tickets, messages, schedules, reactions
 * and extra info move over, and an active ticket on a connection where the other contact has one too is folded
 * into that one (one active ticket per contact and connection). Lists hear `contact` and `ticket` events.
 * Returns the contact now holding the number, or undefined when no contact has either.
 */
export async function linkLid(
  deps: Pick<AppDeps, "db" | "events" | "log">,
  number: string,
  lid: string,
): Promise<ContactRow | undefined> {
  const result = await atomically(deps.db, async (tx) => await link(tx, number, lid));
  if (result.removedContactId !== undefined)
    deps.events.emit("contact.deleted", { contactId: result.removedContactId });
  if (result.changed && result.contact) deps.events.emit("contact.updated", { contact: result.contact });
  for (const ticket of result.removedTickets) deps.events.emit("ticket.deleted", { ticket });
  if (result.movedTicketIds.length) {
    for (const dto of await toTicketDtos(deps.db, await findTickets(deps.db, result.movedTicketIds)))
      deps.events.emit("ticket.updated", { ticket: dto });
  }
  if (result.removedContactId !== undefined)
    deps.log.info("LID contact merged into its phone contact", {
      contactId: result.contact?.id,
      mergedContactId: result.removedContactId,
    });
  return result.contact;
}

/** Links every reported LID↔phone pair (see linkLid); a pair that fails is logged and the others still apply. */
export async function linkLids(deps: Pick<AppDeps, "db" | "events" | "log">, pairs: { phone: string; lid?: string }[]) {
  for (const { phone, lid } of pairs) {
    if (!lid) continue;
    try {
      await linkLid(deps, phone, lid);
    } catch (error) {
      deps.log.error("LID pairing not applied", { lid, error });
    }
  }
}

async function link(tx: Tx, number: string, lid: string): Promise<Linked> {
  const byNumber = await contactByNumber(tx, number);
  const byLid = await contactByLid(tx, lid);
  const none = { changed: false, removedTickets: [], movedTicketIds: [] };
  if (byNumber?.isGroup || byLid?.isGroup) return { contact: byNumber, ...none };
  if (!byLid) {
    if (!byNumber || byNumber.lid) return { contact: byNumber, ...none };
    return { contact: await update(tx, byNumber.id, { lid }), ...none, changed: true };
  }
  // A LID that already has another number is left alone: one pairing never moves a person's history.
  if (byLid.number !== null) return { contact: byNumber, ...none };
  if (!byNumber) return { contact: await update(tx, byLid.id, { number }), ...none, changed: true };
  return await merge(tx, byLid, byNumber, lid);
}

async function update(tx: Tx, id: number, changes: Partial<ContactRow>): Promise<ContactRow> {
  return (await first(tx.update(contacts).set(changes).where(eq(contacts.id, id)).returning()))!;
}

/** Moves everything of the LID-only contact `from` to the phone contact `into`, then removes `from`. */
async function merge(tx: Tx, from: ContactRow, into: ContactRow, lid: string): Promise<Linked> {
  // Inbound messages of either contact find or create their ticket under these locks: none is made mid-merge.
  for (const id of [from.id, into.id].sort((a, b) => a - b)) await lockContactTickets(tx, id);
  const { removedTickets, movedTicketIds } = await moveContactTickets(tx, from.id, into.id);
  await tx.update(contactExtraInfo).set({ contactId: into.id }).where(eq(contactExtraInfo.contactId, from.id));
  await reassignSender(tx, from.id, into.id, lidAddress(lid), into.number!);
  await reassignContactSchedules(tx, from.id, into.id);
  await tx.delete(contacts).where(eq(contacts.id, from.id));
  const named = into.name === into.number && from.name !== lidFallbackName(lid);
  const contact = await update(tx, into.id, {
    lid,
    ...(named ? { name: from.name } : {}),
    ...(!into.email && from.email ? { email: from.email } : {}),
    ...(!into.profilePicUrl && from.profilePicUrl ? { profilePicUrl: from.profilePicUrl } : {}),
  });
  return { contact, changed: true, removedContactId: from.id, removedTickets, movedTicketIds };
}
