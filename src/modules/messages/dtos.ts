import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { amongIdList, idList } from "../../db/index-hints";
import { prepared } from "../../db/prepared";
import { messageReactions, messages, type MessageRow } from "../../db/tables";
import type { MessageDto } from "../../shared/contracts/messages";
import { type ContactSummary, contactSummaries } from "../contacts/lookup";
import { findTickets } from "../tickets/records";

/** The URL the media route serves a message's file under. */
export const mediaPath = (messageId: number) => `/api/media/${messageId}`;

/** Whether the quoted message's ticket may be shown to whoever receives the serialised messages. */
export type QuoteFilter = (quotedTicket: {
  queueId: number | null;
  userId: number | null;
}) => boolean | Promise<boolean>;

/** What the caller has already read for `toMessageDtos`, so it is not read again. */
export interface KnownForDtos {
  /** Contacts as they are now (e.g. the ticket's contact, just serialised with it). */
  contacts?: readonly ContactSummary[];
  /** The messages were just stored: nothing can have reacted to them yet. */
  fresh?: boolean;
  /** The reactions to the messages, in time order, already read. */
  reactions?: readonly ReactionRow[];
}

/**
 * Serialises messages with sender contact, quoted message (and its ticket) and reactions in a few extra queries,
 * whatever the count. A quote is shown only when `mayQuote` accepts its ticket; otherwise `quotedMsg` is null.
 */
export async function toMessageDtos(
  db: Db,
  rows: MessageRow[],
  mayQuote: QuoteFilter,
  known: KnownForDtos = {},
): Promise<MessageDto[]> {
  if (rows.length === 0) return [];
  const quotedIds = [...new Set(rows.map((r) => r.quotedMsgId).filter((v): v is number => v != null))];
  const quoted = quotedIds.length ? await quotedMessages(db, quotedIds, mayQuote) : [];
  const contactMap = new Map(
    (known.contacts ?? []).map(({ id, name, profilePicUrl }) => [id, { id, name, profilePicUrl }]),
  );
  const contactIds = [...rows, ...quoted]
    .map((r) => r.contactId)
    .filter((v): v is number => v != null && !contactMap.has(v));
  for (const { id, name, profilePicUrl } of await contactSummaries(db, contactIds))
    contactMap.set(id, { id, name, profilePicUrl });
  const reactions = known.fresh
    ? new Map<number, MessageDto["reactions"]>()
    : byMessage(
        known.reactions ??
          (await reactionsOf(
            db,
            rows.map((r) => r.id),
          )),
      );
  const quotedMap = new Map(
    quoted.map(({ contactId, ...q }) => {
      const contact = contactId != null ? contactMap.get(contactId) : undefined;
      return [q.id, { ...q, contact: contact ? { name: contact.name } : null }];
    }),
  );
  return rows.map((row) => ({
    ...row,
    mediaUrl: row.mediaUrl ? mediaPath(row.id) : null,
    contact: row.contactId != null ? (contactMap.get(row.contactId) ?? null) : null,
    quotedMsg: row.quotedMsgId != null ? (quotedMap.get(row.quotedMsgId) ?? null) : null,
    reactions: reactions.get(row.id) ?? [],
  }));
}

/** The quoted messages whose ticket `mayQuote` accepts. */
async function quotedMessages(db: Db, ids: number[], mayQuote: QuoteFilter) {
  const rows = await db
    .select({
      id: messages.id,
      body: messages.body,
      fromMe: messages.fromMe,
      mediaType: messages.mediaType,
      contactId: messages.contactId,
      ticketId: messages.ticketId,
    })
    .from(messages)
    .where(inArray(messages.id, ids));
  const ticketsById = new Map(
    (
      await findTickets(
        db,
        rows.map((r) => r.ticketId),
      )
    ).map((t) => [t.id, t]),
  );
  const shown: Omit<(typeof rows)[number], "ticketId">[] = [];
  for (const { ticketId, ...q } of rows) {
    const ticket = ticketsById.get(ticketId);
    if (ticket && (await mayQuote(ticket))) shown.push(q);
  }
  return shown;
}

export const reactionColumns = () => ({
  messageId: messageReactions.messageId,
  emoji: messageReactions.emoji,
  reactor: messageReactions.reactor,
});

/**
 * One message's reactions, put in time order in code: an ORDER BY here made SQLite sort them in a temporary tree
 * for every new message, which cost more than reading them.
 */
const reactionsOfMessage = prepared((db) =>
  db
    .select({ ...reactionColumns(), at: messageReactions.createdAt })
    .from(messageReactions)
    .where(eq(messageReactions.messageId, sql.placeholder("messageId")))
    .prepare(),
);

/** The reactions to a page of messages, in time order. */
const reactionsAmong = prepared((db) =>
  db
    .select(reactionColumns())
    .from(messageReactions)
    .where(amongIdList(messageReactions.messageId, "ids"))
    .orderBy(messageReactions.createdAt)
    .prepare(),
);

export type ReactionRow = { messageId: number; emoji: string; reactor: string };

async function reactionsOf(db: Db, messageIds: number[]): Promise<ReactionRow[]> {
  return messageIds.length === 1
    ? (await reactionsOfMessage(db).all({ messageId: messageIds[0] }))
        .sort((a, b) => a.at.getTime() - b.at.getTime())
        .map(({ at: _, ...reaction }) => reaction)
    : await reactionsAmong(db).all({ ids: idList(messageIds) });
}

function byMessage(rows: readonly ReactionRow[]): Map<number, MessageDto["reactions"]> {
  const reactions = new Map<number, MessageDto["reactions"]>();
  for (const { messageId, ...reaction } of rows)
    reactions.set(messageId, [...(reactions.get(messageId) ?? []), reaction]);
  return reactions;
}
