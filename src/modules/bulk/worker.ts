import { atomically, first } from "../../db/client";
import { and, asc, count, eq, gte, inArray, isNotNull } from "drizzle-orm";
import { bulkLanes, massMessages, type MassMessageRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import { connectedIds } from "../connections/lookup";
import { findOrCreateContact } from "../contacts/find-or-create";
import { contactIdByNumbers } from "../contacts/lookup";
import { sendStateOf } from "../messages/records";
import { findOrCreateTicket } from "../tickets/find-or-create";
import { storeMessage } from "../messages/store";
import { isOptedOut } from "./opt-out";
import { throttleFor, type Throttle } from "./throttle";

/** How often the worker looks for due sends; also the shortest wait between two sends. */
export const BULK_TICK_MS = 1000;
/** The `limit` counts sends over this trailing window. */
export const BULK_WINDOW_MS = 24 * 3600_000;

export type MassStatus =
  | "pending"
  | "sending"
  | "sent"
  | "number not exists"
  | "no photo contact"
  | "not a contact"
  | "opted out"
  | "error";

/** Records being worked on in this process; any other `sending` record was cut off by a stop or a crash. */
const inFlight = new WeakMap<AppDeps, Set<number>>();
/** Connections with a send in progress in this process: a slow send is not overtaken by the next tick. */
const busyLanes = new WeakMap<AppDeps, Set<number>>();

/**
 * The bulk worker as a recurring job of the runner: each tick sends at most one record per connection that is
 * due. The job exists from the first campaign on (kept in the database, so it survives restarts).
 */
export async function scheduleBulk(deps: AppDeps) {
  deps.jobs.handle("bulk-send", () => runBulkTick(deps));
  const unfinished = await first(
    deps.db
      .select({ id: massMessages.id })
      .from(massMessages)
      .where(inArray(massMessages.status, ["pending", "sending"]))
      .limit(1),
  );
  if (unfinished) await ensureBulkJob(deps);
}

/** Makes sure the worker's recurring job exists (records were just stored). */
export async function ensureBulkJob(deps: AppDeps) {
  await deps.jobs.every("bulk-send", BULK_TICK_MS);
}

/**
 * One pass: settles records whose message has left (or that a crash cut off), then, per CONNECTED connection
 * with pending records, sends the next one if its wait is over and its 24 h limit allows.
 */
export async function runBulkTick(deps: AppDeps) {
  await settleHanded(deps);
  const connected = await connectedIds(deps.db);
  const lanes = connected.length
    ? await deps.db
        .selectDistinct({ whatsappId: massMessages.whatsappId })
        .from(massMessages)
        .where(and(eq(massMessages.status, "pending"), inArray(massMessages.whatsappId, connected)))
    : [];
  await Promise.all(
    lanes.map(async ({ whatsappId }) => {
      try {
        await sendNext(deps, whatsappId!);
      } catch (error) {
        deps.log.warn("bulk send failed", { whatsappId, error });
      }
    }),
  );
}

function working(deps: AppDeps): Set<number> {
  let set = inFlight.get(deps);
  if (!set) inFlight.set(deps, (set = new Set()));
  return set;
}

/** The configured wait between sends, at least a tick. */
function baseGapMs(throttle: Throttle): number {
  return Math.max(BULK_TICK_MS, (throttle.minutes * 60 + throttle.seconds) * 1000);
}

/**
 * Due when the configured wait (as it is now, so a change applies to the wait in progress) has passed since
 * the last send, plus, with `random`, the extra drawn at that send (uniform, up to the wait itself).
 */
function isDue(lane: { lastAt: number; jitterMs: number } | undefined, throttle: Throttle, now: number): boolean {
  if (!lane) return true;
  const base = baseGapMs(throttle);
  return now >= lane.lastAt + base + (throttle.random ? Math.min(lane.jitterMs, base) : 0);
}

/** Claims the connection's next pending record (`sending`) and moves its lane's due time, in one transaction. */
async function claimNext(deps: AppDeps, connectionId: number, throttle: Throttle): Promise<MassMessageRow | undefined> {
  const now = deps.clock.now();
  return await atomically(deps.db, async (tx) => {
    const lane = await first(tx.select().from(bulkLanes).where(eq(bulkLanes.whatsappId, connectionId)));
    if (!isDue(lane, throttle, now)) return undefined;
    const sent =
      (
        await first(
          tx
            .select({ n: count() })
            .from(massMessages)
            .where(
              and(
                eq(massMessages.whatsappId, connectionId),
                isNotNull(massMessages.sentAt),
                gte(massMessages.sentAt, now - BULK_WINDOW_MS),
              ),
            ),
        )
      )?.n ?? 0;
    if (sent >= throttle.limit) return undefined;
    const next = await first(
      tx
        .select({ id: massMessages.id })
        .from(massMessages)
        .where(and(eq(massMessages.whatsappId, connectionId), eq(massMessages.status, "pending")))
        .orderBy(asc(massMessages.id))
        .limit(1),
    );
    if (!next) return undefined;
    const mark = { lastAt: now, jitterMs: Math.floor(Math.random() * baseGapMs(throttle)) };
    await tx
      .insert(bulkLanes)
      .values({ whatsappId: connectionId, ...mark })
      .onConflictDoUpdate({ target: bulkLanes.whatsappId, set: mark });
    return await first(
      tx
        .update(massMessages)
        .set({ status: "sending", updatedAt: new Date(now) })
        .where(and(eq(massMessages.id, next.id), eq(massMessages.status, "pending")))
        .returning(),
    );
  });
}

/** Moves a record on from `sending` and tells admins; false when it was not `sending` any more (deleted meanwhile). */
async function finish(
  deps: AppDeps,
  id: number,
  status: MassStatus,
  extra: Partial<MassMessageRow> = {},
): Promise<boolean> {
  const record = await atomically(
    deps.db,
    async (tx) =>
      await first(
        tx
          .update(massMessages)
          .set({ status, updatedAt: new Date(deps.clock.now()), ...extra })
          .where(and(eq(massMessages.id, id), eq(massMessages.status, "sending")))
          .returning(),
      ),
  );
  if (record) deps.events.emit("bulk.updated", { record });
  return !!record;
}

async function sendNext(deps: AppDeps, connectionId: number) {
  if (!(await deps.channels.isRunning(connectionId))) return;
  let busy = busyLanes.get(deps);
  if (!busy) busyLanes.set(deps, (busy = new Set()));
  if (busy.has(connectionId)) return;
  busy.add(connectionId);
  try {
    await sendNextFree(deps, connectionId);
  } finally {
    busy.delete(connectionId);
  }
}

async function sendNextFree(deps: AppDeps, connectionId: number) {
  const throttle = await throttleFor(deps.db, connectionId);
  if (throttle.limit <= 0) return;
  const record = await claimNext(deps, connectionId, throttle);
  if (!record) return;
  deps.events.emit("bulk.updated", { record });
  const mine = working(deps);
  mine.add(record.id);
  try {
    await sendRecord(deps, record, throttle);
  } catch (error) {
    deps.log.warn("bulk record failed", { recordId: record.id, error });
    if (!record.wid) await finish(deps, record.id, "error");
  } finally {
    mine.delete(record.id);
  }
}

/** Checks in order (opt-out, on WhatsApp, photo, saved contact), then stores the text in the contact's ticket and sends it. */
async function sendRecord(deps: AppDeps, record: MassMessageRow, throttle: Throttle) {
  const connectionId = record.whatsappId!;
  if (await isOptedOut(deps.db, connectionId, record.phone)) return void (await finish(deps, record.id, "opted out"));
  let number: string | null;
  try {
    number = await deps.channels.checkNumber(connectionId, record.phone);
  } catch (error) {
    if (error instanceof AppError && error.code === "ERR_WAPP_NOT_INITIALIZED")
      return void (await release(deps, record.id));
    number = null;
  }
  if (!number) return void (await finish(deps, record.id, "number not exists"));
  if (number !== record.phone && (await isOptedOut(deps.db, connectionId, number)))
    return void (await finish(deps, record.id, "opted out"));
  if (throttle.photo) {
    const picture = await deps.channels.profilePictureUrl(connectionId, number, false).catch(() => null);
    if (!picture) return void (await finish(deps, record.id, "no photo contact"));
  }
  if (throttle.contacts && (await contactIdByNumbers(deps.db, [number])) === undefined) {
    return void (await finish(deps, record.id, "not a contact"));
  }

  const contact = await findOrCreateContact(deps, { address: number, isGroup: false });
  const { ticket } = await findOrCreateTicket(deps, {
    contactId: contact.id,
    whatsappId: connectionId,
    isGroup: false,
    cause: "bulk",
  });
  // The id is written down before the message is stored: after a crash, a record with an id but no message was never sent.
  const wid = await deps.channels.newMessageId(connectionId);
  const marked = await atomically(
    deps.db,
    async (tx) =>
      await first(
        tx
          .update(massMessages)
          .set({ wid })
          .where(and(eq(massMessages.id, record.id), eq(massMessages.status, "sending")))
          .returning({ id: massMessages.id }),
      ),
  );
  if (!marked) return;
  const { message } = await storeMessage(deps, {
    whatsappId: connectionId,
    wid,
    ticketId: ticket.id,
    contactId: null,
    body: record.message,
    fromMe: true,
    read: true,
    ack: 0,
    sendState: "queued",
  });
  await deps.outbox.flush(deps, connectionId, message.id);
  await settleRecord(deps, { ...record, wid });
}

/** A record claimed while the link went down goes back to `pending`, to be tried when it is back. */
async function release(deps: AppDeps, id: number) {
  const record = await atomically(
    deps.db,
    async (tx) =>
      await first(
        tx
          .update(massMessages)
          .set({ status: "pending" })
          .where(and(eq(massMessages.id, id), eq(massMessages.status, "sending")))
          .returning(),
      ),
  );
  if (record) deps.events.emit("bulk.updated", { record });
}

/** A `sending` record follows its message: sent, or failed (`error`); while the message waits, so does the record. */
async function settleRecord(deps: AppDeps, record: Pick<MassMessageRow, "id" | "whatsappId" | "wid">) {
  if (!record.wid) return void (await release(deps, record.id));
  const message = await sendStateOf(deps.db, record.whatsappId!, record.wid);
  if (!message) return void (await release(deps, record.id));
  if (message.sendState === "sent" || message.sendState == null)
    await finish(deps, record.id, "sent", { sentAt: deps.clock.now() });
  else if (message.sendState === "failed") await finish(deps, record.id, "error");
}

/**
 * Records `sending` that no run of this process holds: their message went out later (or failed), or a stop or
 * a crash cut them off. One whose message was never stored was never sent and is pending again; one whose
 * message exists is left to the outbox, which sends it under its id at most once.
 */
export async function settleHanded(deps: AppDeps) {
  const mine = working(deps);
  const open = (
    await deps.db
      .select({ id: massMessages.id, whatsappId: massMessages.whatsappId, wid: massMessages.wid })
      .from(massMessages)
      .where(eq(massMessages.status, "sending"))
  ).filter((r) => !mine.has(r.id));
  for (const record of open) await settleRecord(deps, record);
}
