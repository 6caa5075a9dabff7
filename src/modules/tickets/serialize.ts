import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { eachId, gathered, lookupEachKey } from "../../db/gathered";
import { pgArray } from "../../db/pg-array";
import { prepared } from "../../db/prepared";
import { amongIdList, idList } from "../../db/index-hints";
import { tags, ticketTags, type TicketRow } from "../../db/tables";
import { notFound } from "../../errors";
import type { TicketDto } from "../../shared/contracts/tickets";
import { type ConnectionSummary, connectionSummaries } from "../connections/lookup";
import { type ContactExtraInfo, type ContactSummary, contactSummaries, extraInfoOf } from "../contacts/lookup";
import { type QueueSummary, queueSummaries } from "../queues/lookup";
import { userNames } from "../users/lookup";
import { findTicket } from "./records";
import { slaOf } from "./sla";

export type { TicketDto };

const ids = (values: (number | null)[]) => [...new Set(values.filter((v): v is number => v != null))];

function byId<T extends { id: number }>(rows: T[]): Map<number, T> {
  return new Map(rows.map((r) => [r.id, r]));
}

/** What the caller has already read for `toTicketDtos`, so it is not read again. */
export interface KnownForTicketDtos {
  /** Contacts as they are now, in the same transaction. */
  contacts?: readonly ContactSummary[];
  /** The tickets were just created: nobody can have tagged them yet. */
  created?: boolean;
  /** Users' names already read (an assignment's agent). */
  userNames?: readonly { id: number; name: string }[];
  /** Queues already read (those a page offers). */
  queues?: readonly QueueSummary[];
  /** Connections already read. */
  connections?: readonly ConnectionSummary[];
  /** The tags of all the rows, already read. */
  tags?: readonly TagLink[];
}

/** Serialises tickets with contact, user, queue, connection and tags: one query per relation, whatever the count. */
export async function toTicketDtos(db: Db, rows: TicketRow[], known: KnownForTicketDtos = {}): Promise<TicketDto[]> {
  if (rows.length === 0) return [];
  const contactMap = byId((known.contacts ?? []).map(contactSummaryOf));
  const unknownContacts = ids(rows.map((r) => r.contactId)).filter((id) => !contactMap.has(id));
  const userMap = byId([...(known.userNames ?? [])]);
  const unknownUsers = ids(rows.map((r) => r.userId)).filter((id) => !userMap.has(id));
  const queueRows = byId([...(known.queues ?? [])]);
  const unknownQueues = ids(rows.map((r) => r.queueId)).filter((id) => !queueRows.has(id));
  const connectionById = byId([...(known.connections ?? [])]);
  const unknownConnections = ids(rows.map((r) => r.whatsappId)).filter((id) => !connectionById.has(id));
  // The relations are read at once: on PostgreSQL each is a round trip of its own.
  const [contactRows, userRows, queueList, connectionRows, tagLinks] = await Promise.all([
    contactSummaries(db, unknownContacts),
    userNames(db, unknownUsers),
    queueSummaries(db, unknownQueues),
    connectionSummaries(db, unknownConnections),
    known.tags ?? (known.created ? [] : tagLinksOf(db, rows)),
  ]);
  for (const contact of contactRows) contactMap.set(contact.id, contact);
  for (const user of userRows) userMap.set(user.id, user);
  for (const queue of queueList) queueRows.set(queue.id, queue);
  for (const connection of connectionRows) connectionById.set(connection.id, connection);
  const tagsByTicket = new Map<number, TicketDto["tags"]>();
  for (const { ticketId, ...tag } of tagLinks) {
    const list = tagsByTicket.get(ticketId) ?? [];
    list.push(tag);
    tagsByTicket.set(ticketId, list);
  }
  return rows.map(
    ({
      episodeStartedAt,
      firstResponseAt,
      firstResponseBreached,
      resolutionBreached,
      csatAskedAt: _asked,
      csatRating,
      csatComment,
      csatAnsweredAt,
      previewKind,
      previewText,
      previewDetail,
      previewFromMe,
      previewAck,
      previewMessageId,
      messageCount: _messageCount,
      ...row
    }) => {
      const queue = row.queueId != null ? queueRows.get(row.queueId) : undefined;
      const clock = { episodeStartedAt, firstResponseAt, firstResponseBreached, resolutionBreached };
      return {
        ...row,
        csat:
          csatRating != null && csatAnsweredAt
            ? { rating: csatRating, comment: csatComment, answeredAt: csatAnsweredAt }
            : null,
        preview:
          previewKind && previewMessageId != null
            ? {
                kind: previewKind,
                text: previewText,
                detail: previewDetail,
                fromMe: previewFromMe,
                ack: previewAck,
                messageId: previewMessageId,
              }
            : null,
        contact: contactMap.get(row.contactId) ?? null,
        user: row.userId != null ? (userMap.get(row.userId) ?? null) : null,
        queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : null,
        whatsapp: row.whatsappId != null ? connectionShown(connectionById.get(row.whatsappId)) : null,
        tags: tagsByTicket.get(row.id) ?? [],
        waitingSince: row.status === "closed" ? null : row.waitingSince,
        sla: slaOf({ ...row, ...clock }, queue),
      };
    },
  );
}

const connectionShown = (connection: ConnectionSummary | undefined) =>
  connection ? { id: connection.id, name: connection.name, hasCall: connection.hasCall } : null;

/** The tags of `rows`' tickets, each ticket's by name. */
async function tagLinksOf(db: Db, rows: TicketRow[]) {
  if (rows.length === 1)
    return ((await gatheredTagsOfTicket(db, rows[0]!.id)) ?? []).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  return await tagsOfTickets(db).all({ ticketIds: idList(rows.map((r) => r.id)) });
}

const tagsOfTickets = prepared((db) =>
  db
    .select(tagLink())
    .from(ticketTags)
    .innerJoin(tags, eq(tags.id, ticketTags.tagId))
    .where(amongIdList(ticketTags.ticketId, "ticketIds"))
    .orderBy(tags.name)
    .prepare(),
);

const tagLink = () => ({ ticketId: ticketTags.ticketId, id: tags.id, name: tags.name, color: tags.color });

/**
 * One ticket's tags, sorted by name in code: an ORDER BY here made SQLite sort them in a temporary tree for every
 * ticket event, which cost more than reading them. Each link's tag is read by a subquery rather than a join:
 * SQLite took about 5 µs more for the join even when the ticket has no tag, as most have, on every message.
 */
const tagsOfTicket = prepared((db) =>
  db
    .select({
      ticketId: ticketTags.ticketId,
      id: ticketTags.tagId,
      name: sql<string>`(select "tags"."name" from "tags" where "tags"."id" = "ticket_tags"."tag_id")`,
      color: sql<string>`(select "tags"."color" from "tags" where "tags"."id" = "ticket_tags"."tag_id")`,
    })
    .from(ticketTags)
    .where(eq(ticketTags.ticketId, sql.placeholder("ticketId")))
    .prepare(),
);

type TagLink = { ticketId: number; id: number; name: string; color: string };

/** The tags of a batch's tickets (see gathered). */
const gatheredTagsOfTicket = gathered<number, TagLink[]>({
  idOf: String,
  one: async (db, ticketId) => (await tagsOfTicket(db).all({ ticketId })) as TagLink[],
  many: async (tx, ticketIds) => {
    const links = (await tagsEachTicket(tx).all({ ticketIds: pgArray(ticketIds) })) as TagLink[];
    return Map.groupBy(links, (link) => String(link.ticketId));
  },
});

const tagsEachTicket = prepared((db) =>
  lookupEachKey(
    db,
    eachId("ticketIds"),
    db
      .select(tagLink())
      .from(ticketTags)
      .innerJoin(tags, eq(tags.id, ticketTags.tagId))
      .where(sql`${ticketTags.ticketId} = k.id`),
  ),
);

/** Serialises one ticket (see toTicketDtos). */
export async function toTicketDto(db: Db, row: TicketRow, known?: KnownForTicketDtos): Promise<TicketDto> {
  return (await toTicketDtos(db, [row], known))[0]!;
}

/** Only the fields a ticket shows of its contact, whatever row the caller has. */
function contactSummaryOf({ id, name, number, profilePicUrl, isGroup }: ContactSummary): ContactSummary {
  return { id, name, number, profilePicUrl, isGroup };
}

/** What a ticket's card shows beside its row: its relations (see toTicketDtos) and its contact's extra info. */
export interface TicketCardRelations extends KnownForTicketDtos {
  contactId: number;
  extraInfo: ContactExtraInfo[];
}

/**
 * The relations of the ticket's card as `row` names them, read at once, to be read beside other work before the
 * card itself (loadTicketDto reads again only those its row no longer names).
 */
export async function ticketCardRelations(db: Db, row: TicketRow): Promise<TicketCardRelations> {
  const [contacts, names, queues, connections, tags, extraInfo] = await Promise.all([
    contactSummaries(db, [row.contactId]),
    userNames(db, ids([row.userId])),
    queueSummaries(db, ids([row.queueId])),
    connectionSummaries(db, ids([row.whatsappId])),
    tagLinksOf(db, [row]),
    extraInfoOf(db, row.contactId),
  ]);
  return { contacts, userNames: names, queues, connections, tags, contactId: row.contactId, extraInfo };
}

/**
 * The ticket as GET /tickets/:id shows it (contact with its extra info); 404 ERR_NO_TICKET_FOUND when missing.
 * `relations`: those read from an earlier read of the row (ticketCardRelations).
 */
export async function loadTicketDto(db: Db, id: number, relations?: TicketCardRelations): Promise<TicketDto> {
  const row = await findTicket(db, id);
  if (!row) throw notFound("ERR_NO_TICKET_FOUND");
  return await ticketCard(db, row, relations);
}

/** The ticket as GET /tickets/:id shows it, from its row (see loadTicketDto). */
export async function ticketCard(db: Db, row: TicketRow, relations?: TicketCardRelations): Promise<TicketDto> {
  const known = relations?.contactId === row.contactId ? relations : undefined;
  const [dto, extraInfo] = await Promise.all([
    toTicketDto(db, row, known),
    known?.extraInfo ?? extraInfoOf(db, row.contactId),
  ]);
  if (dto.contact) dto.contact = { ...dto.contact, extraInfo };
  return dto;
}
