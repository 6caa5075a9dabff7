import { atomically, first } from "../../db/client";
import { and, eq, isNull } from "drizzle-orm";
import { messages, type MessageRow, type TicketRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import type { CheckedTemplate, MenuChoices, StoredMedia, TemplateMessage } from "../../channels/types";
import { findContact } from "../contacts/lookup";
import { removeMediaFiles } from "../media/files";
import { findQueue } from "../queues/lookup";
import { attachConnection, findTicket } from "../tickets/records";
import { findUserById } from "../users/lookup";
import { canSeeTicket } from "../tickets/access";
import { defaultWhatsappId } from "../connections/default-connection";
import type { AuthUser } from "../../shared/auth-user";
import { LRM, renderPlaceholders } from "./placeholders";
import { findMessage } from "./records";
import { emitMessageUpdate, type StoreMessageInput, storeMessage } from "./store";
import { checkedTemplate, templateData } from "./templates";
import { assertCustomerWindow, outsideCustomerWindow } from "./window";

export interface SendTextOptions {
  quotedMessageId?: number;
  /** Automatic/bot message: LRM-prefixed and rendered with placeholders. Agent text is sent as typed. */
  auto?: boolean;
  /** Whose default connection to attach when the ticket has none (defaults to the ticket's user). */
  userId?: number | null;
  /** The person sending: they may quote only messages of tickets they may see. */
  quotedBy?: Pick<AuthUser, "id" | "profile" | "queueIds">;
  /** The agent who typed it in the panel (see StoreMessageInput.agentId). */
  agentId?: number;
  /** See StoreMessageInput.draftOf. */
  draftOf?: number;
  /** A bot menu's choices, sent as such where the network shows them (the Cloud API); the body numbers them too. */
  menu?: MenuChoices;
  /** Called once the row is stored, before it is handed to the network (to remember which message a job wrote). */
  onStored?: (message: MessageRow) => void;
}

interface Target {
  ticket: TicketRow;
  whatsappId: number;
  contactName: string;
}

/** Attaches a connection to a connection-less ticket. Whether that connection is up only decides when the message goes out. */
async function prepare(
  deps: AppDeps,
  ticket: TicketRow,
  userId: number | null | undefined,
  template = false,
): Promise<Target> {
  let row = ticket;
  if (row.whatsappId == null) {
    const connectionId = await defaultWhatsappId(deps.db, userId ?? row.userId);
    row = await attachConnection(deps, row, connectionId);
  }
  const contact = await findContact(deps.db, row.contactId);
  if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND", 404);
  // Templates are what the Cloud API takes outside the customer's 24-hour window.
  if (!template) await assertCustomerWindow(deps, row.whatsappId!, contact.id);
  return { ticket: row, whatsappId: row.whatsappId!, contactName: contact.name };
}

/**
 * Hands a stored message to its connection's outbox and returns it as it is afterwards: sent, failed, or still
 * queued while the connection is down (it goes out when the connection is back).
 */
async function sendStored(deps: AppDeps, message: MessageRow): Promise<MessageRow> {
  await deps.outbox.flush(deps, message.whatsappId!, message.id);
  return (await findMessage(deps.db, message.id)) ?? message;
}

/**
 * Stores an own message, queued, in the target's ticket under a fresh network id. With `onStored`, the message and
 * what it records are committed together: another sender (the outbox of a connection) never sees the message
 * queued before the caller could withdraw it.
 */
async function storeQueued(
  deps: AppDeps,
  target: Target,
  fields: Omit<StoreMessageInput, "whatsappId" | "wid" | "ticketId" | "contactId" | "fromMe">,
  onStored?: SendTextOptions["onStored"],
): Promise<MessageRow> {
  const wid = await deps.channels.newMessageId(target.whatsappId);
  const store = async () => {
    const { message } = await storeMessage(deps, {
      whatsappId: target.whatsappId,
      wid,
      ticketId: target.ticket.id,
      contactId: null,
      fromMe: true,
      read: true,
      ack: 0,
      sendState: "queued",
      ...fields,
    });
    await onStored?.(message);
    return message;
  };
  return onStored ? await atomically(deps.db, store) : await store();
}

/** Renders an automatic message's text: LRM prefix plus placeholders with the ticket's contact, queue and user. */
export async function renderAutoText(
  deps: AppDeps,
  ticket: TicketRow,
  template: string,
  contactName: string,
): Promise<string> {
  const queue = ticket.queueId != null ? (await findQueue(deps.db, ticket.queueId))?.name : undefined;
  const user = ticket.userId != null ? (await findUserById(deps.db, ticket.userId))?.name : undefined;
  const text = renderPlaceholders(
    template,
    { contactName, ticketId: ticket.id, queueName: queue, userName: user },
    new Date(deps.clock.now()),
    deps.config.timeZone,
  );
  return LRM + text;
}

/**
 * The message to quote: it must belong to the same contact and, when a person sends, to a ticket they may see.
 * Every refusal is the same ERR_FETCH_WAPP_MSG, so a refused id does not tell whether the message exists.
 */
export async function quoteOf(
  deps: AppDeps,
  ticket: Pick<TicketRow, "contactId">,
  opts: Pick<SendTextOptions, "quotedMessageId" | "quotedBy">,
): Promise<MessageRow | undefined> {
  if (opts.quotedMessageId == null) return undefined;
  const row = await findMessage(deps.db, opts.quotedMessageId);
  const owner = row ? await findTicket(deps.db, row.ticketId) : undefined;
  if (!row || !owner || owner.contactId !== ticket.contactId) throw new AppError("ERR_FETCH_WAPP_MSG");
  if (opts.quotedBy && !canSeeTicket(opts.quotedBy, owner)) throw new AppError("ERR_FETCH_WAPP_MSG");
  return row;
}

/**
 * Sends a text on the ticket's connection: the row is stored first (fromMe, read, ack 0, queued), then sent
 * through the outbox. Only a message of the same connection can be quoted on the network.
 */
export async function sendTicketText(
  deps: AppDeps,
  ticket: TicketRow,
  body: string,
  opts: SendTextOptions = {},
): Promise<MessageRow> {
  const target = await prepare(deps, ticket, opts.userId);
  const text = opts.auto ? await renderAutoText(deps, target.ticket, body, target.contactName) : body;
  const quoted = await quoteOf(deps, target.ticket, opts);
  const menu = opts.menu && (await menuChoices(deps, target, opts.menu, !!opts.auto));
  const message = await storeQueued(
    deps,
    target,
    {
      body: text,
      // A quote carries the quoted text to the contact, so a private note is never quoted on the network.
      quotedWid: quoted && !quoted.isPrivate && quoted.whatsappId === target.whatsappId ? quoted.wid : null,
      ...(menu ? { dataJson: JSON.stringify({ menu }) } : {}),
      agentId: opts.agentId,
      draftOf: opts.draftOf,
    },
    opts.onStored,
  );
  return sendStored(deps, message);
}

/** A menu's choices as the message keeps them, on a network that shows them: its text rendered like the body. */
async function menuChoices(
  deps: AppDeps,
  target: Target,
  menu: MenuChoices,
  auto: boolean,
): Promise<MenuChoices | undefined> {
  if ((await deps.channels.providerOf(target.whatsappId)) !== "cloud") return undefined;
  const text = auto ? await renderAutoText(deps, target.ticket, menu.text, target.contactName) : menu.text;
  return { ...menu, text };
}

/**
 * Sends an approved template on the ticket's (cloud) connection, also outside the customer's 24-hour window:
 * stored with its rendered text (`body`) and what the outbox sends (`template`), then sent through the outbox.
 */
export async function sendTicketTemplate(
  deps: AppDeps,
  ticket: TicketRow,
  template: CheckedTemplate,
  body: string,
  opts: Pick<SendTextOptions, "userId" | "agentId" | "onStored"> = {},
): Promise<MessageRow> {
  const target = await prepare(deps, ticket, opts.userId, true);
  const message = await storeQueued(
    deps,
    target,
    { body, dataJson: templateData(template), agentId: opts.agentId },
    opts.onStored,
  );
  return sendStored(deps, message);
}

/**
 * Sends the text, or, when the ticket's connection takes only templates for this customer (the Cloud API past
 * the 24-hour window) and a template is given, that template instead. Without one such a send is refused with
 * ERR_OUTSIDE_24H_WINDOW, as any text.
 */
export async function sendTicketTextOrTemplate(
  deps: AppDeps,
  ticket: TicketRow,
  body: string,
  template: TemplateMessage | undefined,
  opts: SendTextOptions = {},
): Promise<MessageRow> {
  if (
    template &&
    ticket.whatsappId != null &&
    (await outsideCustomerWindow(deps, ticket.whatsappId, ticket.contactId))
  ) {
    const checked = await checkedTemplate(deps, ticket.whatsappId, template);
    return await sendTicketTemplate(deps, ticket, checked.template, checked.text, opts);
  }
  return await sendTicketText(deps, ticket, body, opts);
}

const mediaKind = (mimetype: string) => {
  const major = mimetype.split("/")[0];
  return major === "image" || major === "audio" || major === "video" ? major : "document";
};

type MediaOptions = Pick<SendTextOptions, "userId" | "agentId">;

/** The chat's voice recorder names its uploads `audio-record-site-<timestamp>.<ext>`. */
export const VOICE_RECORDING_MARK = "audio-record-site";

/** A browser voice recording is sent as a voice note (ptt), not as an audio file. */
export function isVoiceRecording(file: Pick<StoredMedia, "mimetype" | "originalName">): boolean {
  return mediaKind(file.mimetype) === "audio" && file.originalName.includes(VOICE_RECORDING_MARK);
}

/**
 * Sends a file already stored in the media directory, caption = body; stored first like a text. The file stays
 * with its message (also while it waits or after a failure, for a retry); it is removed only when the message
 * cannot even be stored.
 */
export async function sendTicketMedia(
  deps: AppDeps,
  ticket: TicketRow,
  file: StoredMedia,
  caption: string,
  opts: MediaOptions = {},
): Promise<MessageRow> {
  let message: MessageRow;
  try {
    message = await storeMedia(deps, ticket, file, caption, opts);
  } catch (error) {
    removeMediaFiles(deps, [file.fileName]);
    throw error;
  }
  return sendStored(deps, message);
}

async function storeMedia(
  deps: AppDeps,
  ticket: TicketRow,
  file: StoredMedia,
  caption: string,
  opts: MediaOptions,
): Promise<MessageRow> {
  const target = await prepare(deps, ticket, opts.userId);
  return await storeQueued(deps, target, {
    body: caption || file.originalName,
    mediaType: mediaKind(file.mimetype),
    mediaUrl: file.fileName,
    mediaMime: file.mimetype,
    fileName: file.originalName,
    agentId: opts.agentId,
  });
}

/**
 * Queues a failed message again under a new id, on the ticket's connection. A new id because the network has
 * already seen the old one and refused or lost it: the retry is a new message, and the failed one was never
 * delivered, so the contact cannot get it twice. A message that is no longer failed is returned as it is.
 */
export async function resendMessage(
  deps: AppDeps,
  ticket: TicketRow,
  message: MessageRow,
  userId: number,
): Promise<MessageRow> {
  const target = await prepare(deps, ticket, userId);
  const wid = await deps.channels.newMessageId(target.whatsappId);
  const row = await atomically(
    deps.db,
    async (tx) =>
      await first(
        tx
          .update(messages)
          .set({ whatsappId: target.whatsappId, wid, ack: 0, sendState: "queued", sendError: null })
          .where(
            and(
              eq(messages.id, message.id),
              message.sendState == null ? isNull(messages.sendState) : eq(messages.sendState, message.sendState),
            ),
          )
          .returning(),
      ),
  );
  if (!row) return (await findMessage(deps.db, message.id)) ?? message;
  await emitMessageUpdate(deps, row);
  return sendStored(deps, row);
}
