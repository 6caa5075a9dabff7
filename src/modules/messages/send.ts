import { join } from "node:path";
import { eq } from "drizzle-orm";
import { contacts, messages, queues, tickets, users, type MessageRow, type TicketRow } from "../../db/schema";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import { contactAddress } from "../../shared/address";
import { ticketRooms } from "../../realtime/rooms";
import type { SendOptions, StoredMedia } from "../../channels/types";
import { removeMediaFiles } from "../media/files";
import { canSeeTicket } from "../tickets/access";
import { defaultWhatsappId } from "../tickets/default-connection";
import type { AuthUser } from "../users/service";
import { LRM, renderPlaceholders } from "./placeholders";
import { storeMessage } from "./store";

export interface SendTextOptions {
  quotedMessageId?: number;
  /** Automatic/bot message: LRM-prefixed and rendered with placeholders. Agent text is sent as typed. */
  auto?: boolean;
  /** Whose default connection to attach when the ticket has none (defaults to the ticket's user). */
  userId?: number | null;
  /** The person sending: they may quote only messages of tickets they may see. */
  quotedBy?: Pick<AuthUser, "id" | "profile" | "queueIds">;
}

interface Target {
  ticket: TicketRow;
  whatsappId: number;
  to: string;
  isGroup: boolean;
  contactName: string;
}

/** Attaches a connection to a connection-less ticket and checks that it is running. */
function prepare(deps: AppDeps, ticket: TicketRow, userId: number | null | undefined): Target {
  let row = ticket;
  if (row.whatsappId == null) {
    const whatsappId = defaultWhatsappId(deps.db, userId ?? row.userId);
    row = deps.db.update(tickets).set({ whatsappId }).where(eq(tickets.id, row.id)).returning().get()!;
  }
  const whatsappId = row.whatsappId!;
  if (!deps.channels.isRunning(whatsappId)) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  const contact = deps.db.select().from(contacts).where(eq(contacts.id, row.contactId)).get();
  if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND", 404);
  return { ticket: row, whatsappId, to: contactAddress(contact), isGroup: contact.isGroup, contactName: contact.name };
}

/**
 * A send that failed leaves no trace: the row stored before sending is deleted and its chat told
 * (`appMessage` `{action:"delete", messageId}`), so history never shows a message the contact did not get.
 */
function dropFailed(deps: AppDeps, target: Target, message: MessageRow, error: unknown): never {
  deps.db.delete(messages).where(eq(messages.id, message.id)).run();
  deps.hub.publish(ticketRooms(target.ticket), "appMessage", { action: "delete", messageId: message.id, ticketId: message.ticketId });
  deps.log.warn("send failed", { ticketId: target.ticket.id, whatsappId: target.whatsappId, error });
  if (error instanceof AppError && (error.code === "ERR_WAPP_NOT_INITIALIZED" || error.code === "ERR_SENDING_WAPP_MSG")) throw error;
  throw new AppError("ERR_SENDING_WAPP_MSG");
}

/** Renders an automatic message's text: LRM prefix plus placeholders with the ticket's contact, queue and user. */
export function renderAutoText(deps: AppDeps, ticket: TicketRow, template: string, contactName: string): string {
  const queueName = ticket.queueId != null ? deps.db.select({ name: queues.name }).from(queues).where(eq(queues.id, ticket.queueId)).get()?.name : undefined;
  const userName = ticket.userId != null ? deps.db.select({ name: users.name }).from(users).where(eq(users.id, ticket.userId)).get()?.name : undefined;
  const text = renderPlaceholders(template, { contactName, ticketId: ticket.id, queueName, userName }, new Date(deps.clock.now()), deps.config.timeZone);
  return LRM + text;
}

/**
 * The message to quote: it must belong to the same contact and, when a person sends, to a ticket they may see.
 * Every refusal is the same ERR_FETCH_WAPP_MSG, so a refused id does not tell whether the message exists.
 */
function quoteOf(deps: AppDeps, target: Target, opts: SendTextOptions): { row: MessageRow; quoted: SendOptions["quoted"] } | undefined {
  if (opts.quotedMessageId == null) return undefined;
  const row = deps.db.select().from(messages).where(eq(messages.id, opts.quotedMessageId)).get();
  const owner = row
    ? deps.db.select({ contactId: tickets.contactId, queueId: tickets.queueId, userId: tickets.userId }).from(tickets).where(eq(tickets.id, row.ticketId)).get()
    : undefined;
  if (!row || !owner || owner.contactId !== target.ticket.contactId) throw new AppError("ERR_FETCH_WAPP_MSG");
  if (opts.quotedBy && !canSeeTicket(opts.quotedBy, owner)) throw new AppError("ERR_FETCH_WAPP_MSG");
  return {
    row,
    quoted: { id: row.wid, fromMe: row.fromMe, raw: row.dataJson, remoteJid: row.remoteJid, participant: row.participant, body: row.body },
  };
}

/** Sends a text on the ticket's connection: the row is stored first (fromMe, read, ack 0), then the network send. */
export async function sendTicketText(deps: AppDeps, ticket: TicketRow, body: string, opts: SendTextOptions = {}): Promise<MessageRow> {
  const target = prepare(deps, ticket, opts.userId);
  const text = opts.auto ? renderAutoText(deps, target.ticket, body, target.contactName) : body;
  const quote = quoteOf(deps, target, opts);
  const wid = deps.channels.newMessageId(target.whatsappId);
  const { message } = storeMessage(deps, {
    whatsappId: target.whatsappId,
    wid,
    ticketId: target.ticket.id,
    contactId: null,
    body: text,
    fromMe: true,
    read: true,
    ack: 0,
    quotedWid: quote?.row.whatsappId === target.whatsappId ? quote.row.wid : null,
  });
  try {
    await deps.channels.sendText(target.whatsappId, target.to, target.isGroup, text, { messageId: wid, quoted: quote?.quoted });
  } catch (error) {
    dropFailed(deps, target, message, error);
  }
  return message;
}

const mediaKind = (mimetype: string) => {
  const major = mimetype.split("/")[0];
  return major === "image" || major === "audio" || major === "video" ? major : "document";
};

/** The chat's voice recorder names its uploads `audio-record-site-<timestamp>.<ext>`. */
export const VOICE_RECORDING_MARK = "audio-record-site";

/** A browser voice recording is sent as a voice note (ptt), not as an audio file. */
export function isVoiceRecording(file: Pick<StoredMedia, "mimetype" | "originalName">): boolean {
  return mediaKind(file.mimetype) === "audio" && file.originalName.includes(VOICE_RECORDING_MARK);
}

/**
 * Sends a file already stored in the media directory, caption = body; stored first like a text. A send that
 * fails (no connection, network error) also removes the file, which no message points at any more.
 */
export async function sendTicketMedia(deps: AppDeps, ticket: TicketRow, file: StoredMedia, caption: string, opts: { userId?: number | null } = {}): Promise<MessageRow> {
  try {
    return await storeAndSendMedia(deps, ticket, file, caption, opts);
  } catch (error) {
    removeMediaFiles(deps, [file.fileName]);
    throw error;
  }
}

async function storeAndSendMedia(deps: AppDeps, ticket: TicketRow, file: StoredMedia, caption: string, opts: { userId?: number | null }): Promise<MessageRow> {
  const target = prepare(deps, ticket, opts.userId);
  const wid = deps.channels.newMessageId(target.whatsappId);
  const { message } = storeMessage(deps, {
    whatsappId: target.whatsappId,
    wid,
    ticketId: target.ticket.id,
    contactId: null,
    body: caption || file.originalName,
    fromMe: true,
    read: true,
    ack: 0,
    mediaType: mediaKind(file.mimetype),
    mediaUrl: file.fileName,
    mediaMime: file.mimetype,
    fileName: file.originalName,
  });
  try {
    await deps.channels.sendMedia(
      target.whatsappId,
      target.to,
      target.isGroup,
      {
        path: join(deps.config.mediaDir, file.fileName),
        mimetype: file.mimetype,
        fileName: file.originalName,
        caption: caption || undefined,
        ...(isVoiceRecording(file) ? { ptt: true } : {}),
      },
      { messageId: wid },
    );
  } catch (error) {
    dropFailed(deps, target, message, error);
  }
  return message;
}
