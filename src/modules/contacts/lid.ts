import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  contactExtraInfo,
  contacts,
  messages,
  schedules,
  ticketTags,
  tickets,
  type ContactRow,
  type TicketRow,
} from "../../db/schema";
import type { AppDeps } from "../../deps";
import { lidAddress } from "../../shared/address";
import { toTicketDtos } from "../tickets/serialize";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const ACTIVE = ["open", "pending"] as const;

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
export function linkLid(
  deps: Pick<AppDeps, "db" | "events" | "log">,
  number: string,
  lid: string,
): ContactRow | undefined {
  const result = deps.db.transaction((tx) => link(tx, number, lid));
  if (result.removedContactId !== undefined)
    deps.events.emit("contact.deleted", { contactId: result.removedContactId });
  if (result.changed && result.contact) deps.events.emit("contact.updated", { contact: result.contact });
  for (const ticket of result.removedTickets) deps.events.emit("ticket.deleted", { ticket });
  if (result.movedTicketIds.length) {
    const moved = deps.db.select().from(tickets).where(inArray(tickets.id, result.movedTicketIds)).all();
    for (const dto of toTicketDtos(deps.db, moved)) deps.events.emit("ticket.updated", { ticket: dto });
  }
  if (result.removedContactId !== undefined)
    deps.log.info("LID contact merged into its phone contact", {
      contactId: result.contact?.id,
      mergedContactId: result.removedContactId,
    });
  return result.contact;
}

/** Links every reported LID↔phone pair (see linkLid); a pair that fails is logged and the others still apply. */
export function linkLids(deps: Pick<AppDeps, "db" | "events" | "log">, pairs: { phone: string; lid?: string }[]) {
  for (const { phone, lid } of pairs) {
    if (!lid) continue;
    try {
      linkLid(deps, phone, lid);
    } catch (error) {
      deps.log.error("LID pairing not applied", { lid, error });
    }
  }
}

function link(tx: Tx, number: string, lid: string): Linked {
  const byNumber = tx.select().from(contacts).where(eq(contacts.number, number)).get();
  const byLid = tx.select().from(contacts).where(eq(contacts.lid, lid)).get();
  const none = { changed: false, removedTickets: [], movedTicketIds: [] };
  if (byNumber?.isGroup || byLid?.isGroup) return { contact: byNumber, ...none };
  if (!byLid) {
    if (!byNumber || byNumber.lid) return { contact: byNumber, ...none };
    return { contact: update(tx, byNumber.id, { lid }), ...none, changed: true };
  }
  // A LID that already has another number is left alone: one pairing never moves a person's history.
  if (byLid.number !== null) return { contact: byNumber, ...none };
  if (!byNumber) return { contact: update(tx, byLid.id, { number }), ...none, changed: true };
  return merge(tx, byLid, byNumber, lid);
}

function update(tx: Tx, id: number, changes: Partial<ContactRow>): ContactRow {
  return tx.update(contacts).set(changes).where(eq(contacts.id, id)).returning().get()!;
}

/** Moves everything of the LID-only contact `from` to the phone contact `into`, then removes `from`. */
function merge(tx: Tx, from: ContactRow, into: ContactRow, lid: string): Linked {
  const removedTickets: TicketRow[] = [];
  const movedTicketIds: number[] = [];
  for (const ticket of tx.select().from(tickets).where(eq(tickets.contactId, from.id)).all()) {
    const twin = isActive(ticket) ? activeTicketOf(tx, into.id, ticket) : undefined;
    if (!twin) {
      tx.update(tickets)
        .set({ contactId: into.id, updatedAt: ticket.updatedAt })
        .where(eq(tickets.id, ticket.id))
        .run();
      movedTicketIds.push(ticket.id);
      continue;
    }
    // The ticket someone already works on (open) stays; a pending one is folded into it.
    const [keep, drop] = twin.status === "pending" && ticket.status === "open" ? [ticket, twin] : [twin, ticket];
    fold(tx, keep, drop, into.id);
    removedTickets.push(drop);
    movedTicketIds.push(keep.id);
  }
  tx.update(contactExtraInfo).set({ contactId: into.id }).where(eq(contactExtraInfo.contactId, from.id)).run();
  tx.update(messages).set({ contactId: into.id }).where(eq(messages.contactId, from.id)).run();
  tx.update(schedules).set({ contactId: into.id }).where(eq(schedules.contactId, from.id)).run();
  // A person reacts once per message: when they did under both addresses, the phone one stays.
  tx.run(sql`UPDATE OR IGNORE message_reactions SET reactor = ${into.number} WHERE reactor = ${lidAddress(lid)}`);
  tx.run(sql`DELETE FROM message_reactions WHERE reactor = ${lidAddress(lid)}`);
  tx.delete(contacts).where(eq(contacts.id, from.id)).run();
  const named = into.name === into.number && from.name !== lidFallbackName(lid);
  const contact = update(tx, into.id, {
    lid,
    ...(named ? { name: from.name } : {}),
    ...(!into.email && from.email ? { email: from.email } : {}),
    ...(!into.profilePicUrl && from.profilePicUrl ? { profilePicUrl: from.profilePicUrl } : {}),
  });
  return { contact, changed: true, removedContactId: from.id, removedTickets, movedTicketIds };
}

const isActive = (t: TicketRow) => (ACTIVE as readonly string[]).includes(t.status);

function activeTicketOf(tx: Tx, contactId: number, like: TicketRow): TicketRow | undefined {
  const connection = like.whatsappId == null ? isNull(tickets.whatsappId) : eq(tickets.whatsappId, like.whatsappId);
  return tx
    .select()
    .from(tickets)
    .where(
      and(
        eq(tickets.contactId, contactId),
        connection,
        eq(tickets.channel, like.channel),
        inArray(tickets.status, [...ACTIVE]),
      ),
    )
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .get();
}

/** Moves `drop`'s messages, tags and schedules into `keep` (unread counts add up) and deletes `drop`. */
function fold(tx: Tx, keep: TicketRow, drop: TicketRow, contactId: number) {
  tx.update(messages).set({ ticketId: keep.id }).where(eq(messages.ticketId, drop.id)).run();
  tx.update(schedules).set({ ticketId: keep.id }).where(eq(schedules.ticketId, drop.id)).run();
  const tagIds = tx.select({ tagId: ticketTags.tagId }).from(ticketTags).where(eq(ticketTags.ticketId, drop.id)).all();
  if (tagIds.length)
    tx.insert(ticketTags)
      .values(tagIds.map(({ tagId }) => ({ ticketId: keep.id, tagId })))
      .onConflictDoNothing()
      .run();
  const latest = drop.updatedAt > keep.updatedAt ? drop : keep;
  tx.update(tickets)
    .set({
      contactId,
      unreadMessages: keep.unreadMessages + drop.unreadMessages,
      lastMessage: latest.lastMessage,
      updatedAt: latest.updatedAt,
    })
    .where(eq(tickets.id, keep.id))
    .run();
  tx.delete(tickets).where(eq(tickets.id, drop.id)).run();
}
