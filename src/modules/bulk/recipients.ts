import type { Writer } from "../../db/client";
import type { MassMessageRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import type { JobOutcome } from "../../jobs/runner";
import { cancelPending, enqueueMany } from "../../jobs/store";
import { findConnection } from "../connections/lookup";
import { contactIdByNumbers } from "../contacts/lookup";
import { sendStateOf } from "../messages/records";
import { storeMessage } from "../messages/store";
import { checkedTemplate, storedTemplate, templateData } from "../messages/templates";
import { outsideCustomerWindow } from "../messages/window";
import { ticketForNumber } from "../tickets/ticket-for-number";
import { isOptedOut } from "./opt-out";
import { type ClaimedRecord, claimRecord, finish, release } from "./records";
import { type BulkLaneRule, laneRule, type Throttle, throttleFor } from "./throttle";

/** One job per recipient record, in the lane of its connection. */
export const BULK_JOB = "bulk-recipient";
/**
 * How long a recipient waits for its connection before it looks again; it goes on as soon as the connection is
 * CONNECTED here (see wakeRecipients).
 */
const WAIT_FOR_CONNECTION_MS = 10_000;

/** The lane of a connection's recipients: one send at a time, throttled by its bulk settings. */
export const bulkLane = (connectionId: number) => `wa:${connectionId}`;
const connectionOf = (lane: string) => Number(lane.slice("wa:".length));
const recipientKey = (recordId: number) => `bulk:${recordId}`;

/**
 * Registers the recipients' job on the runner: a connection's recipients are sent one at a time, oldest first,
 * as its settings throttle them (read when the next one is due), on the node that runs the connection. A
 * recipient whose connection is not CONNECTED waits, and goes on once it is (see wakeRecipients).
 */
export function startBulk(deps: AppDeps) {
  deps.jobs.handle<BulkLaneRule>(
    BULK_JOB,
    async (payload: { recordId: number }, job, rule) =>
      await sendRecipient(deps, payload.recordId, connectionOf(job.lane!), rule!.throttle),
    {
      lanes: {
        rule: async (lane) => laneRule(await throttleFor(deps.db, connectionOf(lane))),
        here: async (lane) => await deps.channels.isRunning(connectionOf(lane)),
      },
    },
  );
  // A deleted connection's records went with it (cascade): so do their sends.
  deps.events.subscribe((event) => {
    if (event.name === "connection.deleted")
      deps.jobs
        .drop(bulkLane(event.payload.connectionId))
        .catch((error) => deps.log.warn("bulk lane not dropped", { error }));
  });
}

/** The connection is CONNECTED: its recipients that waited for it go on at once. */
export async function wakeRecipients(deps: AppDeps, connectionId: number) {
  await deps.jobs.wake(bulkLane(connectionId));
}

/** Queues the stored records' sends, in the transaction that stores them. */
export async function enqueueRecipients(tx: Writer, records: MassMessageRow[], now: number) {
  await enqueueMany(
    tx,
    BULK_JOB,
    records.map((r) => ({ payload: { recordId: r.id }, key: recipientKey(r.id), lane: bulkLane(r.whatsappId!) })),
    now,
  );
}

/** The records are gone: their sends not started yet are cancelled (one in progress goes on). */
export async function cancelRecipients(tx: Writer, recordIds: number[]) {
  await cancelPending(tx, recordIds.map(recipientKey));
}

/**
 * Sends of a connection left running by a stop or a crash may be taken up again: every connection's when no
 * other node shares the database, or one this node has just taken up.
 */
export async function resumeInterruptedRecipients(deps: AppDeps, connectionId?: number) {
  await deps.jobs.release(connectionId === undefined ? undefined : bulkLane(connectionId));
}

/** A send only starts on a connection that runs here and last reported CONNECTED. */
async function isConnected(deps: AppDeps, connectionId: number): Promise<boolean> {
  if (!(await deps.channels.isRunning(connectionId))) return false;
  return (await findConnection(deps.db, connectionId))?.status === "CONNECTED";
}

/**
 * One recipient: checks in order (opt-out, on WhatsApp, photo, saved contact), then stores the text in the
 * contact's ticket, sends it through the outbox and settles the record. Counted against the daily limit only
 * when sent. Safe to run again after a crash: a record whose message was stored follows that message.
 */
export async function sendRecipient(
  deps: AppDeps,
  recordId: number,
  connectionId: number,
  throttle: Throttle,
): Promise<JobOutcome> {
  if (!(await isConnected(deps, connectionId))) return { waitMs: WAIT_FOR_CONNECTION_MS };
  const claimed = await claimRecord(deps, recordId, await deps.channels.newMessageId(connectionId));
  if (!claimed) return undefined;
  let messageId = claimed.resumed ? (await sendStateOf(deps.db, connectionId, claimed.record.wid))?.id : undefined;
  try {
    if (messageId === undefined) {
      const stored = await storeChecked(deps, claimed, throttle);
      if (stored === undefined) return undefined;
      if (stored === "wait") return { waitMs: WAIT_FOR_CONNECTION_MS };
      messageId = stored;
    }
    await deps.outbox.flush(deps, connectionId, messageId);
    return await settle(deps, claimed.record);
  } catch (error) {
    deps.log.warn("bulk record failed", { recordId, error });
    if (messageId !== undefined) return { waitMs: WAIT_FOR_CONNECTION_MS };
    await finish(deps, recordId, "error");
    return undefined;
  }
}

/**
 * Runs the checks and stores the message in the contact's ticket (queued): its id, undefined when the record was
 * skipped (with its status), or "wait" when the link went down during the checks. A record deleted once `sending`
 * keeps its message, which goes out.
 */
async function storeChecked(
  deps: AppDeps,
  { record }: ClaimedRecord,
  throttle: Throttle,
): Promise<number | "wait" | undefined> {
  const connectionId = record.whatsappId!;
  if (await isOptedOut(deps.db, connectionId, record.phone)) return void (await finish(deps, record.id, "opted out"));
  let number: string | null;
  try {
    number = await deps.channels.checkNumber(connectionId, record.phone);
  } catch (error) {
    if (error instanceof AppError && error.code === "ERR_WAPP_NOT_INITIALIZED")
      return (await release(deps, record.id), "wait");
    number = null;
  }
  if (!number) return void (await finish(deps, record.id, "number not exists"));
  if (number !== record.phone && (await isOptedOut(deps.db, connectionId, number)))
    return void (await finish(deps, record.id, "opted out"));
  // The Cloud API shows no profile photos: the filter would skip everyone there.
  const cloud = (await deps.channels.providerOf(connectionId)) === "cloud";
  if (throttle.photo && !cloud) {
    const picture = await deps.channels.profilePictureUrl(connectionId, number, false).catch(() => null);
    if (!picture) return void (await finish(deps, record.id, "no photo contact"));
  }
  if (throttle.contacts && (await contactIdByNumbers(deps.db, [number])) === undefined)
    return void (await finish(deps, record.id, "not a contact"));
  // The Cloud API takes only templates for someone who has not written in 24 h: the record's, or none.
  let template: Awaited<ReturnType<typeof checkedTemplate>> | undefined;
  if (cloud && (await outsideCustomerWindow(deps, connectionId, await contactIdByNumbers(deps.db, [number])))) {
    const chosen = storedTemplate(record.template);
    if (!chosen) return void (await finish(deps, record.id, "outside 24h window"));
    try {
      template = await checkedTemplate(deps, connectionId, chosen);
    } catch (error) {
      if (error instanceof AppError && error.code === "ERR_WAPP_NOT_INITIALIZED")
        return (await release(deps, record.id), "wait");
      throw error;
    }
  }

  const ticket = await ticketForNumber(deps, number, connectionId, "bulk");
  const { message } = await storeMessage(deps, {
    whatsappId: connectionId,
    wid: record.wid,
    ticketId: ticket.id,
    contactId: null,
    body: template?.text ?? record.message,
    ...(template ? { dataJson: templateData(template.template) } : {}),
    fromMe: true,
    read: true,
    ack: 0,
    sendState: "queued",
  });
  return message.id;
}

/**
 * A `sending` record follows its message: sent (counted), or failed (`error`); while the message waits for the
 * connection, so does the record. A message cancelled in the chat before it left was never sent: the record is
 * pending again.
 */
async function settle(deps: AppDeps, record: MassMessageRow & { wid: string }): Promise<JobOutcome> {
  const message = await sendStateOf(deps.db, record.whatsappId!, record.wid);
  if (!message) {
    await release(deps, record.id);
    return { waitMs: 0 };
  }
  if (message.sendState === "sent" || message.sendState == null) {
    await finish(deps, record.id, "sent", { sentAt: deps.clock.now() });
    return { counted: true };
  }
  if (message.sendState === "failed") return void (await finish(deps, record.id, "error"));
  return { waitMs: WAIT_FOR_CONNECTION_MS };
}
