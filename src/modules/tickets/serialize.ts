import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  contactExtraInfo,
  contacts,
  queues,
  tags,
  ticketTags,
  tickets,
  users,
  whatsapps,
  type TicketRow,
} from "../../db/schema";
import { notFound } from "../../errors";
import type { TicketDto } from "../../shared/contracts/tickets";

export type { TicketDto };

const ids = (values: (number | null)[]) => [...new Set(values.filter((v): v is number => v != null))];

function byId<T extends { id: number }>(rows: T[]): Map<number, T> {
  return new Map(rows.map((r) => [r.id, r]));
}

/** Serialises tickets with contact, user, queue, connection and tags: one query per relation, whatever the count. */
export function toTicketDtos(db: Db, rows: TicketRow[]): TicketDto[] {
  if (rows.length === 0) return [];
  const contactIds = ids(rows.map((r) => r.contactId));
  const userIds = ids(rows.map((r) => r.userId));
  const queueIds = ids(rows.map((r) => r.queueId));
  const whatsappIds = ids(rows.map((r) => r.whatsappId));
  const contactMap = byId(
    db
      .select({
        id: contacts.id,
        name: contacts.name,
        number: contacts.number,
        profilePicUrl: contacts.profilePicUrl,
        isGroup: contacts.isGroup,
      })
      .from(contacts)
      .where(inArray(contacts.id, contactIds))
      .all(),
  );
  const userMap = byId(
    userIds.length
      ? db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, userIds)).all()
      : [],
  );
  const queueMap = byId(
    queueIds.length
      ? db
          .select({ id: queues.id, name: queues.name, color: queues.color })
          .from(queues)
          .where(inArray(queues.id, queueIds))
          .all()
      : [],
  );
  const whatsappMap = byId(
    whatsappIds.length
      ? db
          .select({ id: whatsapps.id, name: whatsapps.name, wavoip: whatsapps.wavoip })
          .from(whatsapps)
          .where(inArray(whatsapps.id, whatsappIds))
          .all()
          .map(({ wavoip, ...connection }) => ({ ...connection, hasCall: wavoip.trim() !== "" }))
      : [],
  );
  const tagLinks = db
    .select({ ticketId: ticketTags.ticketId, id: tags.id, name: tags.name, color: tags.color })
    .from(ticketTags)
    .innerJoin(tags, eq(tags.id, ticketTags.tagId))
    .where(
      inArray(
        ticketTags.ticketId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(tags.name)
    .all();
  const tagsByTicket = new Map<number, TicketDto["tags"]>();
  for (const { ticketId, ...tag } of tagLinks) {
    const list = tagsByTicket.get(ticketId) ?? [];
    list.push(tag);
    tagsByTicket.set(ticketId, list);
  }
  return rows.map((row) => ({
    ...row,
    contact: contactMap.get(row.contactId) ?? null,
    user: row.userId != null ? (userMap.get(row.userId) ?? null) : null,
    queue: row.queueId != null ? (queueMap.get(row.queueId) ?? null) : null,
    whatsapp: row.whatsappId != null ? (whatsappMap.get(row.whatsappId) ?? null) : null,
    tags: tagsByTicket.get(row.id) ?? [],
  }));
}

/** Serialises one ticket (see toTicketDtos). */
export function toTicketDto(db: Db, row: TicketRow): TicketDto {
  return toTicketDtos(db, [row])[0]!;
}

/** The ticket as GET /tickets/:id shows it (contact with its extra info); 404 ERR_NO_TICKET_FOUND when missing. */
export function loadTicketDto(db: Db, id: number): TicketDto {
  const row = db.select().from(tickets).where(eq(tickets.id, id)).get();
  if (!row) throw notFound("ERR_NO_TICKET_FOUND");
  const dto = toTicketDto(db, row);
  if (dto.contact) {
    const extraInfo = db
      .select({ id: contactExtraInfo.id, name: contactExtraInfo.name, value: contactExtraInfo.value })
      .from(contactExtraInfo)
      .where(eq(contactExtraInfo.contactId, row.contactId))
      .orderBy(contactExtraInfo.id)
      .all();
    dto.contact = { ...dto.contact, extraInfo };
  }
  return dto;
}
