import { first } from "../../db/client";
import { and, eq, isNull } from "drizzle-orm";
import { massMessages, type MassMessageRow } from "../../db/tables";
import type { AppDeps } from "../../deps";

export type MassStatus =
  | "pending"
  | "sending"
  | "sent"
  | "number not exists"
  | "no photo contact"
  | "not a contact"
  | "opted out"
  | "outside 24h window"
  | "error";

/** A record this run works on; `resumed` when a run before it (cut off by a stop or a crash) had started it. */
export interface ClaimedRecord {
  record: MassMessageRow & { wid: string };
  resumed: boolean;
}

/**
 * Moves a pending record to `sending` with the network id its message will have (`wid`), and tells admins. The
 * id is written down before the message is stored: a record with an id but no message was never sent. A record
 * already `sending` was started by a run that was cut off: it is taken up as it is (with its id, or `wid` if it
 * had none yet). Undefined when the record is gone or settled.
 */
export async function claimRecord(deps: AppDeps, id: number, wid: string): Promise<ClaimedRecord | undefined> {
  const claimed = await first(
    deps.db
      .update(massMessages)
      .set({ status: "sending", wid, updatedAt: new Date(deps.clock.now()) })
      .where(and(eq(massMessages.id, id), eq(massMessages.status, "pending")))
      .returning(),
  );
  if (claimed) {
    deps.events.emit("bulk.updated", { record: claimed });
    return { record: { ...claimed, wid }, resumed: false };
  }
  const current = await first(deps.db.select().from(massMessages).where(eq(massMessages.id, id)));
  if (current?.status !== "sending") return undefined;
  if (current.wid) return { record: { ...current, wid: current.wid }, resumed: true };
  const marked = await first(
    deps.db
      .update(massMessages)
      .set({ wid })
      .where(and(eq(massMessages.id, id), eq(massMessages.status, "sending"), isNull(massMessages.wid)))
      .returning(),
  );
  return marked && { record: { ...marked, wid }, resumed: false };
}

/** Moves a record on from `sending` and tells admins; false when it was not `sending` any more (deleted meanwhile). */
export async function finish(
  deps: AppDeps,
  id: number,
  status: MassStatus,
  extra: Partial<MassMessageRow> = {},
): Promise<boolean> {
  const record = await first(
    deps.db
      .update(massMessages)
      .set({ status, updatedAt: new Date(deps.clock.now()), ...extra })
      .where(and(eq(massMessages.id, id), eq(massMessages.status, "sending")))
      .returning(),
  );
  if (record) deps.events.emit("bulk.updated", { record });
  return !!record;
}

/** A record whose message was not stored goes back to `pending`, to be sent when its connection is back. */
export async function release(deps: AppDeps, id: number) {
  const record = await first(
    deps.db
      .update(massMessages)
      .set({ status: "pending" })
      .where(and(eq(massMessages.id, id), eq(massMessages.status, "sending")))
      .returning(),
  );
  if (record) deps.events.emit("bulk.updated", { record });
}
