import { type Db, execute, first, type Reader, type Writer } from "../../db/client";
import { gathered, lookupEachKey } from "../../db/gathered";
import { pgArray } from "../../db/pg-array";
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { prepared, writtenLimit } from "../../db/prepared";
import { type MessageRow, messageReactions, messages, storedInstant } from "../../db/tables";

/** The media type of a message that could not be decrypted yet (replaced when WhatsApp resends it). */
export const WAITING = "waiting";

/** The message stored under this network id on the connection (`null`: sent with no connection). */
export async function findByWid(
  db: Pick<Db, "select">,
  connectionId: number | null,
  wid: string,
): Promise<MessageRow | undefined> {
  if (connectionId != null) return await gatheredMessageByWid(db, { connectionId, wid });
  return await first(
    db
      .select()
      .from(messages)
      .where(and(sql`${messages.whatsappId} IS NULL`, eq(messages.wid, wid))),
  );
}

const messageByWid = prepared((db) =>
  db
    .select()
    .from(messages)
    .where(and(eq(messages.whatsappId, sql.placeholder("connectionId")), eq(messages.wid, sql.placeholder("wid"))))
    .prepare(),
);

/** The messages of a batch by network id: one statement per connection. */
const gatheredMessageByWid = gathered<{ connectionId: number; wid: string }, MessageRow>({
  idOf: ({ connectionId, wid }) => `${connectionId}:${wid}`,
  one: async (db, key) => (await messageByWid(db).get(key)) as MessageRow | undefined,
  many: async (tx, keys) => {
    const found = new Map<string, MessageRow>();
    const byConnection = Map.groupBy(keys, (key) => key.connectionId);
    for (const [connectionId, list] of byConnection) {
      const rows = (await messagesByWids(tx).all({
        connectionId,
        wids: pgArray(list.map((key) => key.wid)),
      })) as MessageRow[];
      for (const row of rows) found.set(`${connectionId}:${row.wid}`, row);
    }
    return found;
  },
});

const messagesByWids = prepared((db) =>
  lookupEachKey(
    db,
    sql`unnest(${sql.placeholder("wids")}::text[]) as k(wid)`,
    db
      .select()
      .from(messages)
      .where(and(eq(messages.whatsappId, sql.placeholder("connectionId")), sql`${messages.wid} = k.wid`)),
  ),
);

/** The message row by id. */
export async function findMessage(db: Reader, id: number): Promise<MessageRow | undefined> {
  return await first(db.select().from(messages).where(eq(messages.id, id)));
}

/** True when a message with this network id is stored for the connection (a `waiting` placeholder included). */
export async function hasMessage(db: Reader, connectionId: number, wid: string): Promise<boolean> {
  return !!(await first(
    db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.whatsappId, connectionId), eq(messages.wid, wid))),
  ));
}

/** Which of these network ids are stored for the connection. */
export async function storedWids(db: Reader, connectionId: number, wids: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < wids.length; i += 500)
    for (const r of await db
      .select({ wid: messages.wid })
      .from(messages)
      .where(and(eq(messages.whatsappId, connectionId), inArray(messages.wid, wids.slice(i, i + 500)))))
      known.add(r.wid);
  return known;
}

/** Where a message sent from here stands, by its network id; undefined when it is not stored. */
export async function sendStateOf(
  db: Reader,
  connectionId: number,
  wid: string,
): Promise<Pick<MessageRow, "id" | "sendState"> | undefined> {
  return await first(
    db
      .select({ id: messages.id, sendState: messages.sendState })
      .from(messages)
      .where(and(eq(messages.whatsappId, connectionId), eq(messages.wid, wid))),
  );
}

/** Send state and error of each of these messages that is sent or failed. */
export async function settledSends(
  db: Reader,
  ids: readonly number[],
): Promise<Map<number, Pick<MessageRow, "sendState" | "sendError">>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: messages.id, sendState: messages.sendState, sendError: messages.sendError })
    .from(messages)
    .where(and(inArray(messages.id, [...ids]), inArray(messages.sendState, ["sent", "failed"])));
  return new Map(rows.map(({ id, ...state }) => [id, state]));
}

/** Whether the ticket has a message not read yet (markMessagesRead would change one). */
export async function hasUnreadMessages(db: Reader, ticketId: number): Promise<boolean> {
  return ((await leastRead(db).get({ ticketId })) as { read: boolean } | undefined)?.read === false;
}

/**
 * The ticket's first message in the order of its index by read flag, unread first: always that index's first
 * entry. Asked for its unread messages instead (`read = false limit 1`), PostgreSQL scanned the whole table when
 * its statistics said most messages were unread, as they do after a load until the next analyse.
 */
const leastRead = prepared((db) =>
  db
    .select({ read: messages.read })
    .from(messages)
    .where(eq(messages.ticketId, sql.placeholder("ticketId")))
    .orderBy(messages.read)
    .limit(writtenLimit(1))
    .prepare(),
);

/** Marks the ticket's unread messages read; returns those it changed, as read receipts name them (`id` = WhatsApp id). */
export async function markMessagesRead(tx: Writer, ticketId: number) {
  // What the column's own update default would write: a prepared statement would keep the time it was built at.
  return (await unreadMarkedRead(tx).all({ ticketId, updatedAt: storedInstant(new Date()) })) as MarkedRead[];
}

type MarkedRead = Pick<MessageRow, "fromMe" | "whatsappId" | "remoteJid" | "participant"> & { id: string };

const unreadMarkedRead = prepared((db) =>
  db
    .update(messages)
    .set({ read: true, updatedAt: sql`${sql.placeholder("updatedAt")}` })
    .where(and(eq(messages.ticketId, sql.placeholder("ticketId")), eq(messages.read, false)))
    .returning({
      id: messages.wid,
      fromMe: messages.fromMe,
      whatsappId: messages.whatsappId,
      remoteJid: messages.remoteJid,
      participant: messages.participant,
    })
    .prepare(),
);

/** The media file names of these tickets' messages (to remove once their rows are gone). */
export async function mediaFilesOfTickets(db: Reader, ticketIds: readonly number[]): Promise<string[]> {
  if (!ticketIds.length) return [];
  return (
    await db
      .select({ mediaUrl: messages.mediaUrl })
      .from(messages)
      .where(and(inArray(messages.ticketId, [...ticketIds]), isNotNull(messages.mediaUrl)))
  ).map((r) => r.mediaUrl!);
}

/** Moves a ticket's messages to another ticket (tickets folded into one). */
export async function moveTicketMessages(tx: Writer, from: number, to: number) {
  await tx.update(messages).set({ ticketId: to }).where(eq(messages.ticketId, from));
}

/**
 * A contact merged into another: their messages and reactions go with them. A person reacts once per message:
 * when they did under both addresses, the reaction under `intoReactor` stays.
 */
export async function reassignSender(tx: Writer, from: number, into: number, fromReactor: string, intoReactor: string) {
  await tx.update(messages).set({ contactId: into }).where(eq(messages.contactId, from));
  await execute(
    tx,
    sql`DELETE FROM message_reactions WHERE reactor = ${fromReactor} AND message_id IN (SELECT message_id FROM message_reactions WHERE reactor = ${intoReactor})`,
  );
  await tx.update(messageReactions).set({ reactor: intoReactor }).where(eq(messageReactions.reactor, fromReactor));
}

/**
 * The ticket's newest `limit` messages, oldest first, as an assistant reads the conversation: never deleted
 * ones, private notes only when `withNotes`.
 */
export async function recentMessages(
  db: Reader,
  ticketId: number,
  limit: number,
  withNotes: boolean,
): Promise<MessageRow[]> {
  const rows = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.ticketId, ticketId),
        eq(messages.isDeleted, false),
        withNotes ? undefined : eq(messages.isPrivate, false),
      ),
    )
    .orderBy(sql`${messages.createdAt} desc, ${messages.id} desc`)
    .limit(limit);
  return rows.reverse();
}
