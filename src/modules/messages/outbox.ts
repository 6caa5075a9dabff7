import { atomically, first } from "../../db/client";
import { refreshPreview } from "./preview";
import { join } from "node:path";
import { contactAddress } from "../../shared/address";
import { and, asc, eq, inArray, lt, lte } from "drizzle-orm";
import type { CheckedTemplate, MenuChoices, OutgoingMedia, SendOptions } from "../../channels/types";
import { messages, type MessageRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import { KeyedLanes } from "../../shared/lanes";
import type { ErrorCode } from "../../shared/error-codes";
import { findConnection } from "../connections/lookup";
import { contactChat } from "../contacts/lookup";
import { removeMediaFiles } from "../media/files";
import { findTicket } from "../tickets/records";
import { isVoiceRecording } from "./send";
import { findMessage } from "./records";
import { emitMessageUpdate } from "./store";

type SendState = NonNullable<MessageRow["sendState"]>;

/**
 * Messages sent from here are stored first (`queued`) and handed to the network oldest first, one at a time per
 * connection, and only while that connection is CONNECTED: a message written while it is down waits and goes
 * out once it is back, in the order it was written. A row is claimed (`sending`) in a transaction before the
 * network call, so no two flushes can send it; one left `sending` by a stop or a crash is queued again at start
 * and sent under the same id, which WhatsApp does not deliver twice.
 */
export class Outbox {
  /**
   * A connection's flushes, one after another. Flushes are asked for from inside a driver's status report: a job
   * of KeyedLanes starts a turn later, once that report has returned.
   */
  private readonly flushes = new KeyedLanes<number>();

  /**
   * Sends what is queued on the connection if it is connected (a no-op otherwise): with `messageId`, the queued
   * messages up to that one, which each have a flush of their own for what comes after; without, all of them.
   * Resolves once done, or stopped by the link going down or by a failure (logged); never rejects.
   */
  flush(deps: AppDeps, connectionId: number, messageId?: number): Promise<void> {
    return this.flushes
      .run(connectionId, () => drain(deps, connectionId, messageId))
      .catch((error) => deps.log.error("outbox flush failed", { whatsappId: connectionId, error }));
  }

  /** Resolves once the flushes of the connection asked for so far have ended: nothing of theirs is being sent. */
  idle(connectionId: number): Promise<void> {
    return this.flushes.settled(connectionId);
  }
}

async function drain(deps: AppDeps, connectionId: number, upTo: number | undefined) {
  for (;;) {
    if (!(await isConnected(deps, connectionId))) return;
    const row = await claimNext(deps, connectionId, upTo);
    if (!row) return;
    const outcome = await deliver(deps, row);
    // The link went down mid-send: later messages wait with it, so they keep their order.
    if (outcome === "queued" || row.id === upTo) return;
  }
}

/** A send only starts on a connection that runs and last reported CONNECTED (not while it opens or reconnects). */
async function isConnected(deps: AppDeps, connectionId: number): Promise<boolean> {
  if (!(await deps.channels.isRunning(connectionId))) return false;
  return (await findConnection(deps.db, connectionId))?.status === "CONNECTED";
}

/** Claims the connection's oldest queued message (up to the id `upTo`, when given). */
async function claimNext(deps: AppDeps, connectionId: number, upTo?: number): Promise<MessageRow | undefined> {
  const row = await atomically(deps.db, async (tx) => {
    const next = await first(
      tx
        .select({ id: messages.id })
        .from(messages)
        .where(
          and(
            eq(messages.sendState, "queued"),
            eq(messages.whatsappId, connectionId),
            upTo === undefined ? undefined : lte(messages.id, upTo),
          ),
        )
        .orderBy(asc(messages.id))
        .limit(1),
    );
    if (!next) return undefined;
    return await first(
      tx
        .update(messages)
        .set({ sendState: "sending" })
        .where(and(eq(messages.id, next.id), eq(messages.sendState, "queued")))
        .returning(),
    );
  });
  if (row) await emitMessageUpdate(deps, row);
  return row;
}

/** Moves a message on from `from` (only if it is still there, e.g. not failed by a nack meanwhile) and tells its chat. */
async function settle(deps: AppDeps, id: number, from: SendState, to: SendState, sendError: ErrorCode | null = null) {
  const row = await atomically(
    deps.db,
    async (tx) =>
      await first(
        tx
          .update(messages)
          .set({ sendState: to, sendError })
          .where(and(eq(messages.id, id), eq(messages.sendState, from)))
          .returning(),
      ),
  );
  if (row) await emitMessageUpdate(deps, row);
}

async function deliver(deps: AppDeps, row: MessageRow): Promise<"sent" | "failed" | "queued"> {
  const connectionId = row.whatsappId!;
  try {
    const ticket = await findTicket(deps.db, row.ticketId);
    const chat = ticket ? await contactChat(deps.db, ticket.contactId) : undefined;
    if (!chat) throw new AppError("ERR_NO_CONTACT_FOUND");
    const to = contactAddress(chat);
    const { template, menu } = sentAs(row);
    if (template) await deps.channels.sendTemplate(connectionId, to, chat.isGroup, template, { messageId: row.wid });
    else if (row.mediaUrl)
      await deps.channels.sendMedia(connectionId, to, chat.isGroup, outgoingMedia(deps, row), { messageId: row.wid });
    else
      await deps.channels.sendText(connectionId, to, chat.isGroup, row.body, {
        messageId: row.wid,
        quoted: await quotedOf(deps, row),
        ...(menu ? { menu } : {}),
      });
  } catch (error) {
    if (
      (error instanceof AppError && error.code === "ERR_WAPP_NOT_INITIALIZED") ||
      !(await isConnected(deps, connectionId))
    ) {
      deps.log.info("send waits for the connection", { whatsappId: connectionId, messageId: row.id });
      await settle(deps, row.id, "sending", "queued");
      return "queued";
    }
    deps.log.warn("send failed", { whatsappId: connectionId, messageId: row.id, error });
    await settle(deps, row.id, "sending", "failed", error instanceof AppError ? error.code : "ERR_SENDING_WAPP_MSG");
    return "failed";
  }
  await settle(deps, row.id, "sending", "sent");
  return "sent";
}

/** What an own message carries besides its text: the template it was written from, or its menu's choices. */
function sentAs(row: MessageRow): { template?: CheckedTemplate; menu?: MenuChoices } {
  if (!row.fromMe || !(row.dataJson?.startsWith('{"template"') || row.dataJson?.startsWith('{"menu"'))) return {};
  return JSON.parse(row.dataJson) as { template?: CheckedTemplate; menu?: MenuChoices };
}

/** A stored media message as the driver sends it; a body that only repeats the file name is no caption. */
function outgoingMedia(deps: AppDeps, row: MessageRow): OutgoingMedia {
  const mimetype = row.mediaMime ?? "application/octet-stream";
  const fileName = row.fileName ?? row.mediaUrl!;
  const caption = row.body && row.body !== fileName ? row.body : undefined;
  return {
    path: join(deps.config.mediaDir, row.mediaUrl!),
    mimetype,
    fileName,
    ...(caption ? { caption } : {}),
    ...(isVoiceRecording({ mimetype, originalName: fileName }) ? { ptt: true } : {}),
  };
}

async function quotedOf(deps: AppDeps, row: MessageRow): Promise<SendOptions["quoted"]> {
  if (row.quotedMsgId == null) return undefined;
  const q = await findMessage(deps.db, row.quotedMsgId);
  return q && !q.isPrivate
    ? { id: q.wid, fromMe: q.fromMe, raw: q.dataJson, remoteJid: q.remoteJid, participant: q.participant, body: q.body }
    : undefined;
}

/**
 * Sends interrupted by a stop or a crash go out again, under the same id, when their connection is back: those
 * of every connection, or of one whose sender is gone (a node taking it over must not touch another's sends).
 */
export async function requeueInterrupted(deps: Pick<AppDeps, "db" | "log">, connectionId?: number) {
  const rows = await atomically(
    deps.db,
    async (tx) =>
      await tx
        .update(messages)
        .set({ sendState: "queued" })
        .where(
          and(
            eq(messages.sendState, "sending"),
            connectionId === undefined ? undefined : eq(messages.whatsappId, connectionId),
          ),
        )
        .returning({ id: messages.id }),
  );
  if (rows.length) deps.log.info("interrupted sends queued again", { messageIds: rows.map((r) => r.id) });
}

/**
 * The network refused a message (a nack): it shows as failed, to be retried. A message the contact already
 * received (delivered or read) stays as it is.
 */
export async function markRejected(
  deps: Pick<AppDeps, "db" | "events" | "log">,
  connectionId: number,
  wid: string,
  reason?: string,
) {
  const row = await atomically(
    deps.db,
    async (tx) =>
      await first(
        tx
          .update(messages)
          .set({ sendState: "failed", sendError: "ERR_WAPP_MSG_REJECTED" })
          .where(
            and(
              eq(messages.whatsappId, connectionId),
              eq(messages.wid, wid),
              eq(messages.fromMe, true),
              lt(messages.ack, 3),
            ),
          )
          .returning(),
      ),
  );
  deps.log.warn("message rejected by the network", { whatsappId: connectionId, wid, reason, known: !!row });
  if (row) await emitMessageUpdate(deps, row);
}

/**
 * Cancels a message that was not handed to the network (queued, or failed): the row and its file are removed
 * and its chat told. Returns false when it is no longer cancellable (being sent, or sent).
 */
export async function cancelUnsent(
  deps: Pick<AppDeps, "db" | "events" | "config" | "log">,
  messageId: number,
): Promise<boolean> {
  const row = await atomically(
    deps.db,
    async (tx) =>
      await first(
        tx
          .delete(messages)
          .where(and(eq(messages.id, messageId), inArray(messages.sendState, ["queued", "failed"])))
          .returning(),
      ),
  );
  if (!row) return false;
  if (row.mediaUrl) removeMediaFiles(deps, [row.mediaUrl]);
  const ticket = await findTicket(deps.db, row.ticketId);
  if (ticket) deps.events.emit("message.deleted", { messageId: row.id, ticket });
  await refreshPreview(deps, row.ticketId, row.id);
  return true;
}
