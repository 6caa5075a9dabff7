import { atomically, type Db, first, inTransaction, type Writer } from "../../db/client";
import { and, eq, lt, sql } from "drizzle-orm";
import { gathered } from "../../db/gathered";
import { prepared, preparedPerCount, rowPlaceholder } from "../../db/prepared";
import { messageReactions, messages, type MessageRow, type TicketEventRow, type TicketRow } from "../../db/tables";
import type { MessageEdit, Reaction } from "../../channels/types";
import type { AppDeps } from "../../deps";
import type { MessageDto } from "../../shared/contracts/messages";
import { type QuoteFilter, toMessageDtos } from "./dtos";
import { everyViewerMaySee } from "../tickets/access";
import { findTicket, raiseShownAck, replaceShown, touchHistoryMessage } from "../tickets/records";
import { touchLastMessage } from "../tickets/last-message";
import { isAutomatic, refreshPreview, shownOf } from "./preview";
import { clearDraft } from "../tickets/drafts";
import { recordFirstResponse } from "../tickets/response-clock";
import { announceTicketEvents } from "../tickets/history-dtos";
import { findByWid, WAITING } from "./records";
import type { ContactSummary } from "../contacts/lookup";
import { toTicketDto } from "../tickets/serialize";
import { indexNewMessages } from "../../db/search-index";
import type { DomainEvents } from "../../events/catalogue";

export type { MessageDto };

export interface StoreMessageInput {
  whatsappId: number | null;
  wid: string;
  ticketId: number;
  contactId: number | null;
  body: string;
  fromMe: boolean;
  read?: boolean;
  ack?: number;
  mediaType?: string;
  /** File name inside the media directory. */
  mediaUrl?: string | null;
  mediaMime?: string | null;
  fileName?: string | null;
  /** Inbound media whose file is not stored (yet): `downloading` or `unavailable`. */
  mediaState?: MessageRow["mediaState"];
  /** Network id of the quoted message; linked when that message is stored. */
  quotedWid?: string | null;
  remoteJid?: string | null;
  participant?: string | null;
  senderName?: string | null;
  dataJson?: string | null;
  /** Epoch ms of the message; defaults to the clock. */
  at?: number;
  /** Inbound messages count as unread unless this is false. */
  countUnread?: boolean;
  /** Messages sent from here start `queued` (see outbox.ts). */
  sendState?: MessageRow["sendState"];
  /**
   * Imported from the chat history sent at pairing: never unread, no `appMessage` event, and the ticket's last
   * message and time move only forward, to the message's own time.
   */
  history?: boolean;
  /** With `history`: the caller moves the ticket's last message itself, once for a whole chat (touchHistoryMessage). */
  ticketMovedByCaller?: boolean;
  /** An agent's private note: stored and announced to the chat, but it leaves the ticket (last message, time, unread) as it was. */
  isPrivate?: boolean;
  /**
   * The agent who typed the message in the panel: it answers the customer (see recordFirstResponse). Absent for
   * what the server sends by itself (bot, greetings, farewells, surveys, schedules, campaigns) and for notes.
   */
  agentId?: number;
  /** The user whose composer wrote it: their draft of the ticket is removed in the same transaction. */
  draftOf?: number;
  /**
   * What is stored under this network id, as the caller read it in the same transaction (null: nothing), so it
   * is not read again; read here when absent.
   */
  existing?: MessageRow | null;
  /** The ticket's contact as the caller read it in the same transaction, for the announcement. */
  ticketContact?: ContactSummary;
}

/**
 * Stores a message once per (connection, network id) and updates its ticket in the same transaction
 * (last message, updatedAt, unread +1 for inbound), then publishes `appMessage` create. A re-delivery returns
 * the stored row with `created: false` and changes nothing, except that it replaces a `waiting` placeholder
 * (`replaced: true`).
 */
export async function storeMessage(
  deps: Pick<AppDeps, "db" | "events" | "clock">,
  input: StoreMessageInput,
): Promise<{ message: MessageRow; created: boolean; replaced?: boolean }> {
  const { db } = deps;
  const at = new Date(input.at ?? deps.clock.now());
  const countUnread = !input.fromMe && input.countUnread !== false;
  // In a transaction of its own the message is indexed before the commit; in a caller's, the caller indexes.
  const ownTransaction = !inTransaction(db);
  const result = await atomically(
    db,
    async (
      tx,
    ): Promise<{
      message: MessageRow;
      created: boolean;
      replaced?: boolean;
      announce?: Announcement;
      firstResponse?: TicketEventRow;
    }> => {
      const existing =
        input.existing !== undefined ? (input.existing ?? undefined) : await findByWid(tx, input.whatsappId, input.wid);
      if (existing?.mediaType === WAITING && input.mediaType !== WAITING)
        return await replacePlaceholder(tx, existing, input);
      if (existing) return { message: existing, created: false };
      const quoted = input.quotedWid ? await findByWid(tx, input.whatsappId, input.quotedWid) : undefined;
      const message = (await gatheredInsert(tx, {
        wid: input.wid,
        whatsappId: input.whatsappId,
        ticketId: input.ticketId,
        contactId: input.contactId,
        body: input.body,
        fromMe: input.fromMe,
        read: input.read ?? input.fromMe,
        ack: input.ack ?? 0,
        ...contentOf(input, quoted),
        remoteJid: input.remoteJid ?? null,
        participant: input.participant ?? null,
        senderName: input.senderName ?? null,
        sendState: input.sendState ?? null,
        isPrivate: input.isPrivate ?? false,
        userId: input.agentId ?? null,
        createdAt: at,
        updatedAt: at,
      }))!;
      if (ownTransaction) await indexNewMessages(tx);
      if (input.draftOf != null) await clearDraft(tx, input.ticketId, input.draftOf);
      if (input.isPrivate) return { message, created: true, announce: await announcement(db, message) };
      const shown = isAutomatic(message) ? null : shownOf(message);
      if (input.history) {
        if (!input.ticketMovedByCaller && shown) await touchHistoryMessage(tx, input.ticketId, shown, at);
        return { message, created: true };
      }
      const answers = input.agentId != null;
      const firstResponse = answers ? await recordFirstResponse(tx, input.ticketId, input.agentId!, at) : undefined;
      const effect = countUnread ? "inbound" : answers ? "answer" : "none";
      const ticket = await touchLastMessage(tx, input.ticketId, shown, new Date(deps.clock.now()), effect);
      return {
        message,
        created: true,
        announce: await announcement(db, message, ticket, input.ticketContact),
        firstResponse,
      };
    },
  );
  if (result.replaced) await emitMessageUpdate(deps, result.message);
  // Published in the turn the commit ends: a send already running elsewhere that claims this queued message
  // reports it only after the chat has heard it was created.
  if (result.announce) deps.events.emit("message.created", result.announce);
  if (result.firstResponse) await announceTicketEvents(deps, [result.firstResponse]);
  return { message: result.message, created: result.created, replaced: result.replaced };
}

type Announcement = DomainEvents["message.created"];

/**
 * The `message.created` payload of a message just stored, read in its transaction (`ticketRow`: its ticket as
 * the store left it, and `contact`: the ticket's, when the caller has them).
 */
async function announcement(
  db: Db,
  row: MessageRow,
  ticketRow?: TicketRow,
  contact?: ContactSummary,
): Promise<Announcement | undefined> {
  ticketRow ??= await findTicket(db, row.ticketId);
  if (!ticketRow) return undefined;
  const ticket = await toTicketDto(db, ticketRow, { contacts: contact ? [contact] : [] });
  const known = { contacts: ticket.contact ? [ticket.contact] : [], fresh: true };
  const [message] = await toMessageDtos(db, [row], roomsMayQuote(db, ticketRow), known);
  return message ? { message, ticket } : undefined;
}

const INSERTED_COLUMNS = [
  "wid",
  "whatsappId",
  "ticketId",
  "contactId",
  "body",
  "fromMe",
  "read",
  "ack",
  "mediaType",
  "mediaUrl",
  "mediaMime",
  "fileName",
  "mediaState",
  "quotedMsgId",
  "remoteJid",
  "participant",
  "senderName",
  "dataJson",
  "sendState",
  "isPrivate",
  "userId",
  "createdAt",
  "updatedAt",
] as const satisfies (keyof typeof messages.$inferInsert)[];

const insertMessage = prepared((db) =>
  db
    .insert(messages)
    .values(
      Object.fromEntries(
        INSERTED_COLUMNS.map((c) => [c, sql.placeholder(c)]),
      ) as unknown as typeof messages.$inferInsert,
    )
    .returning()
    .prepare(),
);

/** `count` messages in one INSERT, each row's values named `<column>_<row>`. */
const insertMessages = preparedPerCount((db, count) =>
  db
    .insert(messages)
    .values(
      Array.from(
        { length: count },
        (_, i) =>
          Object.fromEntries(
            INSERTED_COLUMNS.map((c) => [c, sql.placeholder(rowPlaceholder(c, i))]),
          ) as unknown as typeof messages.$inferInsert,
      ),
    )
    .returning()
    .prepare(),
);

type InsertedMessage = Record<(typeof INSERTED_COLUMNS)[number], unknown>;

let inserts = 0;

/**
 * A batch's new messages in one multi-row INSERT (see gathered). Each insert is its own key: the same network id
 * twice fails the statement (the unique index), as two single inserts would, and the batch is written in turn.
 */
const gatherMessageInsert = gathered<{ call: number; row: InsertedMessage }, MessageRow>({
  idOf: ({ call }) => String(call),
  one: async (db, { row }) => (await insertMessage(db).get(row)) as MessageRow,
  many: async (tx, keys) => {
    const values: Record<string, unknown> = {};
    keys.forEach(({ row }, i) => {
      for (const column of INSERTED_COLUMNS) values[rowPlaceholder(column, i)] = row[column];
    });
    const inserted = (await insertMessages(tx, keys.length).all(values)) as MessageRow[];
    const byWid = new Map(inserted.map((message) => [`${message.whatsappId}:${message.wid}`, message]));
    return new Map(keys.map(({ call, row }) => [String(call), byWid.get(`${row.whatsappId}:${row.wid}`)!]));
  },
});

const gatheredInsert = async (tx: Db, row: InsertedMessage) => await gatherMessageInsert(tx, { call: ++inserts, row });

/** What a message carries besides its text: its media, the message it quotes and its raw data. */
function contentOf(input: StoreMessageInput, quoted: MessageRow | undefined) {
  return {
    mediaType: input.mediaType ?? "chat",
    mediaUrl: input.mediaUrl ?? null,
    mediaMime: input.mediaMime ?? null,
    fileName: input.fileName ?? null,
    mediaState: input.mediaState ?? null,
    quotedMsgId: quoted?.id ?? null,
    dataJson: input.dataJson ?? null,
  };
}

async function replacePlaceholder(tx: Writer, placeholder: MessageRow, input: StoreMessageInput) {
  const quoted = input.quotedWid ? await findByWid(tx, input.whatsappId, input.quotedWid) : undefined;
  const message = (await first(
    tx
      .update(messages)
      .set({ body: input.body, ...contentOf(input, quoted) })
      .where(eq(messages.id, placeholder.id))
      .returning(),
  ))!;
  if (!isAutomatic(message)) await replaceShown(tx, placeholder.ticketId, placeholder.id, shownOf(message));
  return { message, created: false, replaced: true };
}

/** What the rooms of `ticket` may be shown of a quote (see everyViewerMaySee). */
function roomsMayQuote(db: Db, ticket: { queueId: number | null; userId: number | null }): QuoteFilter {
  return async (quotedTicket) => await everyViewerMaySee(db, ticket, quotedTicket);
}

/** Announces a changed message (its chat shows it). */
export async function emitMessageUpdate(deps: Pick<AppDeps, "db" | "events">, row: MessageRow) {
  // The message's ticket is read only for a quote, which is what it decides.
  const mayQuote: QuoteFilter = async (quotedTicket) => {
    const ticket = await findTicket(deps.db, row.ticketId);
    return !!ticket && (await everyViewerMaySee(deps.db, ticket, quotedTicket));
  };
  const [message] = await toMessageDtos(deps.db, [row], mayQuote);
  if (message) deps.events.emit("message.updated", { message });
}

/** Writes a delivery status only when it is larger than the stored one (acks never go backwards). */
export async function updateAck(
  deps: Pick<AppDeps, "db" | "events">,
  connectionId: number,
  wid: string,
  ack: number,
): Promise<MessageRow | undefined> {
  if (!Number.isFinite(ack)) return undefined;
  const row = await first(
    deps.db
      .update(messages)
      .set({ ack })
      .where(and(eq(messages.whatsappId, connectionId), eq(messages.wid, wid), lt(messages.ack, ack)))
      .returning(),
  );
  if (!row) return undefined;
  await emitMessageUpdate(deps, row);
  const ticket = await raiseShownAck(deps.db, row.id, ack);
  if (ticket) deps.events.emit("ticket.previewAck", { ticket, messageId: row.id, ack });
  return row;
}

/** Marks a message deleted for everyone (revoked on the network or from the panel) and tells its chat. */
export async function markRevoked(
  deps: Pick<AppDeps, "db" | "events">,
  connectionId: number,
  wid: string,
): Promise<MessageRow | undefined> {
  const row = await first(
    deps.db
      .update(messages)
      .set({ isDeleted: true })
      .where(and(eq(messages.whatsappId, connectionId), eq(messages.wid, wid)))
      .returning(),
  );
  if (!row) return undefined;
  await emitMessageUpdate(deps, row);
  await refreshPreview(deps, row.ticketId, row.id);
  return row;
}

/** Applies an edit made by the sender: new text, the "edited" mark, and an update to its chat. */
export async function applyEdit(
  deps: Pick<AppDeps, "db" | "events" | "log">,
  connectionId: number,
  edit: MessageEdit,
): Promise<MessageRow | undefined> {
  const row = await first(
    deps.db
      .update(messages)
      .set({ body: edit.body, isEdited: true })
      .where(and(eq(messages.whatsappId, connectionId), eq(messages.wid, edit.id), eq(messages.isDeleted, false)))
      .returning(),
  );
  if (row) {
    await emitMessageUpdate(deps, row);
    await refreshPreview(deps, row.ticketId, row.id);
  } else deps.log.info("edit of an unknown or deleted message ignored", { whatsappId: connectionId, wid: edit.id });
  return row;
}

/**
 * Attaches a reaction to the message it reacts to (one per reactor; an empty emoji removes it) and updates
 * that message's bubble. A reaction is never a chat message: no unread count, no ticket activity.
 */
export async function applyReaction(
  deps: Pick<AppDeps, "db" | "events" | "log">,
  connectionId: number,
  reaction: Reaction,
): Promise<MessageRow | undefined> {
  const target = await findByWid(deps.db, connectionId, reaction.targetId);
  if (!target) {
    deps.log.info("reaction to an unknown message ignored", { whatsappId: connectionId, wid: reaction.targetId });
    return undefined;
  }
  const key = and(eq(messageReactions.messageId, target.id), eq(messageReactions.reactor, reaction.reactor));
  if (!reaction.emoji) await deps.db.delete(messageReactions).where(key);
  else
    await deps.db
      .insert(messageReactions)
      .values({
        messageId: target.id,
        reactor: reaction.reactor,
        emoji: reaction.emoji,
        createdAt: new Date(reaction.at),
      })
      .onConflictDoUpdate({
        target: [messageReactions.messageId, messageReactions.reactor],
        set: { emoji: reaction.emoji, createdAt: new Date(reaction.at) },
      });
  await emitMessageUpdate(deps, target);
  return target;
}
