import { atomically, type Db, first } from "../../db/client";
import { prepared } from "../../db/prepared";
import type {
  BaileysEventMap,
  Contact,
  MessageUpsertType,
  MessageUserReceiptUpdate,
  WACallEvent,
  WAMessage,
  WAMessageUpdate,
} from "baileys";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { inboundJournal } from "../../db/tables";
import { fromEventJson, toEventJson } from "./event-json";

/** One inbound event as journaled: a message, a change to one, a call, or what was learnt about contacts. */
export type JournalEvent =
  | { kind: "upsert"; type: MessageUpsertType; message: WAMessage }
  | { kind: "update"; update: WAMessageUpdate }
  | { kind: "receipt"; receipt: MessageUserReceiptUpdate }
  | { kind: "call"; call: WACallEvent }
  | { kind: "contacts"; contacts: Partial<Contact>[] }
  | { kind: "lid-mapping"; mapping: BaileysEventMap["lid-mapping.update"] };

export interface JournalRow {
  id: number;
  event: JournalEvent;
}

/** A row as written: its event and the payload stored for it. */
export interface WrittenRow extends JournalRow {
  payload: string;
}

/** The events of one Baileys batch that the inbox keeps: everything that becomes a stored message or changes one. */
export function journalEvents(events: Partial<BaileysEventMap>): JournalEvent[] {
  const out: JournalEvent[] = [];
  const upsert = events["messages.upsert"];
  for (const message of upsert?.messages ?? []) out.push({ kind: "upsert", type: upsert!.type, message });
  for (const update of events["messages.update"] ?? []) {
    const u = update.update;
    if (u.status != null || u.messageStubType != null || u.message !== undefined) out.push({ kind: "update", update });
  }
  for (const receipt of events["message-receipt.update"] ?? [])
    if (receipt.key.fromMe) out.push({ kind: "receipt", receipt });
  for (const call of events.call ?? []) out.push({ kind: "call", call });
  const mapping = events["lid-mapping.update"];
  if (mapping) out.push({ kind: "lid-mapping", mapping });
  const contacts = [
    ...(events["contacts.upsert"] ?? []),
    ...(events["contacts.update"] ?? []),
    ...(events["messaging-history.set"]?.contacts ?? []),
  ];
  if (contacts.length) out.push({ kind: "contacts", contacts });
  return out;
}

const insertRow = prepared((db) =>
  db
    .insert(inboundJournal)
    .values({
      whatsappId: sql.placeholder("whatsappId") as unknown as number,
      kind: sql.placeholder("kind") as unknown as string,
      payload: sql.placeholder("payload") as unknown as string,
    })
    .returning({ id: inboundJournal.id })
    .prepare(),
);

/**
 * How long handled rows may wait for a write to remove them with. In a burst Baileys journals a message every
 * turn of the event loop (about a millisecond apart), and each such write removes the rows handled meanwhile in
 * its own transaction; once the burst is over they are removed on their own.
 */
const REMOVAL_WAIT_MS = 10;
/** The most handled rows that wait; more are removed at once. */
const MAX_REMOVALS = 256;

/** An event about to be written: its payload, and the row it may overwrite. */
interface PlannedRow {
  event: JournalEvent;
  kind: JournalEvent["kind"];
  payload: string;
  held: WrittenRow | undefined;
}

interface Removal {
  id: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The inbound_journal table: every write is its own transaction, synchronous (bun:sqlite). */
export class InboundJournal {
  /** Handled rows not removed yet. */
  private removing: Removal[] = [];
  private removalTimer?: ReturnType<typeof setTimeout>;

  constructor(private readonly db: Db) {}

  /**
   * Writes the events in one transaction and returns them with their row ids and payloads, in order. `replacing`
   * may name, per event, a row of the connection to overwrite instead of adding one, with the payload it holds: a
   * row that already holds the event as it is now is left alone, and when every event is such a row no
   * transaction is opened.
   */
  async write(
    connectionId: number,
    events: JournalEvent[],
    replacing: (event: JournalEvent) => WrittenRow | undefined = () => undefined,
  ): Promise<WrittenRow[]> {
    const planned = events.map((event): PlannedRow => {
      const { kind, ...rest } = event;
      return { event, kind, payload: toEventJson(rest), held: replacing(event) };
    });
    if (planned.every(unchanged)) return planned.map(({ event, held }) => ({ ...held!, event }));
    const removals = this.takeRemovals();
    let rows: WrittenRow[];
    try {
      rows = await this.writeRows(connectionId, planned, removals);
    } catch (error) {
      this.requeue(removals);
      throw error;
    }
    for (const r of removals) r.resolve();
    return rows;
  }

  /** Writes the planned rows, and removes the handled ones taken with them, in one transaction. */
  private async writeRows(connectionId: number, planned: PlannedRow[], removals: Removal[]): Promise<WrittenRow[]> {
    return await atomically(this.db, async (tx) => {
      // The few rows handled since the last write, each through the prepared statement.
      for (const r of removals) await deleteRow(tx).run({ id: r.id });
      const rows: WrittenRow[] = [];
      for (const p of planned) {
        const { event, kind, payload, held } = p;
        if (unchanged(p)) {
          rows.push({ ...held!, event });
          continue;
        }
        if (held !== undefined) {
          const updated = await first(
            tx
              .update(inboundJournal)
              .set({ kind, payload })
              .where(and(eq(inboundJournal.whatsappId, connectionId), eq(inboundJournal.id, held.id)))
              .returning({ id: inboundJournal.id }),
          );
          if (updated) {
            rows.push({ id: updated.id, event, payload });
            continue;
          }
        }
        const { id } = (await insertRow(tx).get({ whatsappId: connectionId, kind, payload })) as { id: number };
        rows.push({ id, event, payload });
      }
      return rows;
    });
  }

  /**
   * Removes a handled row, with the next write (in its transaction) or, when none comes within
   * REMOVAL_WAIT_MS, together with the rows handled meanwhile in one statement.
   */
  remove(id: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.removing.push({ id, resolve, reject });
      if (this.removing.length >= MAX_REMOVALS) void this.removeWaiting();
      else this.removalTimer ??= setTimeout(() => void this.removeWaiting(), REMOVAL_WAIT_MS);
    });
  }

  /** Removes the handled rows still waiting now (a stop does not leave them to be handled again). */
  async removeWaiting() {
    const batch = this.takeRemovals();
    if (!batch.length) return;
    try {
      await deleteRows(this.db, batch);
      for (const r of batch) r.resolve();
    } catch (error) {
      for (const r of batch) r.reject(error);
    }
  }

  private takeRemovals(): Removal[] {
    clearTimeout(this.removalTimer);
    this.removalTimer = undefined;
    const batch = this.removing;
    this.removing = [];
    return batch;
  }

  /** Removals taken by a write that failed wait again. */
  private requeue(removals: Removal[]) {
    if (!removals.length) return;
    this.removing.unshift(...removals);
    this.removalTimer ??= setTimeout(() => void this.removeWaiting(), REMOVAL_WAIT_MS);
  }

  /** One row, or undefined once it is handled. */
  async get(connectionId: number, id: number): Promise<JournalRow | undefined> {
    const row = await first(
      this.db
        .select()
        .from(inboundJournal)
        .where(and(eq(inboundJournal.whatsappId, connectionId), eq(inboundJournal.id, id))),
    );
    return row ? { id: row.id, event: decode(row.kind, row.payload) } : undefined;
  }

  /** Every row of the connection still to handle, oldest first. */
  async pending(connectionId: number): Promise<JournalRow[]> {
    return (
      await this.db
        .select()
        .from(inboundJournal)
        .where(eq(inboundJournal.whatsappId, connectionId))
        .orderBy(asc(inboundJournal.id))
    ).map((row) => ({ id: row.id, event: decode(row.kind, row.payload) }));
  }
}

const deleteRow = prepared((db) =>
  db
    .delete(inboundJournal)
    .where(eq(inboundJournal.id, sql.placeholder("id")))
    .prepare(),
);

/** Deletes the rows in one statement. */
async function deleteRows(db: Db, removals: Removal[]) {
  await db.delete(inboundJournal).where(
    inArray(
      inboundJournal.id,
      removals.map((r) => r.id),
    ),
  );
}

/** A held row that already holds the event as it is now. */
function unchanged(p: PlannedRow): boolean {
  return p.held !== undefined && samePayload(p.held.payload, p.payload);
}

/** Whether two payloads hold the same event: Baileys may emit a message with its key's fields in another order. */
function samePayload(a: string, b: string): boolean {
  return a === b || (a.length === b.length && Bun.deepEquals(JSON.parse(a), JSON.parse(b)));
}

function decode(kind: string, payload: string): JournalEvent {
  return { kind, ...fromEventJson<object>(payload) } as JournalEvent;
}
