import { atomically, type Db, first, one } from "../../db/client";
import type {
  BaileysEventMap,
  Contact,
  MessageUpsertType,
  MessageUserReceiptUpdate,
  WACallEvent,
  WAMessage,
  WAMessageUpdate,
} from "baileys";
import { and, asc, eq } from "drizzle-orm";
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

/** The inbound_journal table: every write is its own transaction, synchronous (bun:sqlite). */
export class InboundJournal {
  constructor(private readonly db: Db) {}

  /**
   * Writes the events in one transaction and returns them with their row ids, in order. `replacing` may name, per
   * event, a row of the connection to overwrite instead of adding one.
   */
  async write(
    connectionId: number,
    events: JournalEvent[],
    replacing: (event: JournalEvent) => number | undefined = () => undefined,
  ): Promise<JournalRow[]> {
    return await atomically(this.db, async (tx) => {
      const rows: JournalRow[] = [];
      for (const event of events) {
        const { kind, ...payload } = event;
        const json = toEventJson(payload);
        const existing = replacing(event);
        if (existing !== undefined) {
          const updated = await first(
            tx
              .update(inboundJournal)
              .set({ kind, payload: json })
              .where(and(eq(inboundJournal.whatsappId, connectionId), eq(inboundJournal.id, existing)))
              .returning({ id: inboundJournal.id }),
          );
          if (updated) {
            rows.push({ id: updated.id, event });
            continue;
          }
        }
        const { id } = await one(
          tx
            .insert(inboundJournal)
            .values({ whatsappId: connectionId, kind, payload: json })
            .returning({ id: inboundJournal.id }),
        );
        rows.push({ id, event });
      }
      return rows;
    });
  }

  async remove(id: number) {
    await this.db.delete(inboundJournal).where(eq(inboundJournal.id, id));
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

function decode(kind: string, payload: string): JournalEvent {
  return { kind, ...fromEventJson<object>(payload) } as JournalEvent;
}
