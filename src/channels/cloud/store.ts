import { and, asc, eq } from "drizzle-orm";
import { atomically, type Db, first, one } from "../../db/client";
import { cloudSentMessages, inboundJournal } from "../../db/tables";
import type { CloudEvent } from "./payload";

export interface JournaledEvent {
  id: number;
  event: CloudEvent;
}

/**
 * What the cloud driver keeps in the database: the ids the Cloud API gave the messages sent, and the webhook
 * events not handled yet (the inbound journal shared with the Baileys driver, one row per event).
 */
export class CloudStore {
  constructor(private readonly db: Db) {}

  /** The Cloud API's id of a message sent under `wid`, if it was sent. */
  async wamidOf(connectionId: number, wid: string): Promise<string | undefined> {
    const row = await first(
      this.db
        .select({ wamid: cloudSentMessages.wamid })
        .from(cloudSentMessages)
        .where(and(eq(cloudSentMessages.whatsappId, connectionId), eq(cloudSentMessages.wid, wid))),
    );
    return row?.wamid;
  }

  /** The id a sent message is stored under here, from the Cloud API's id; undefined for messages not sent from here. */
  async widOf(connectionId: number, wamid: string): Promise<string | undefined> {
    const row = await first(
      this.db
        .select({ wid: cloudSentMessages.wid })
        .from(cloudSentMessages)
        .where(and(eq(cloudSentMessages.whatsappId, connectionId), eq(cloudSentMessages.wamid, wamid))),
    );
    return row?.wid;
  }

  async rememberSent(connectionId: number, wid: string, wamid: string) {
    await this.db.insert(cloudSentMessages).values({ whatsappId: connectionId, wid, wamid }).onConflictDoNothing();
  }

  /** Journals the events of one webhook call in one transaction; returns them with their row ids, in order. */
  async journal(connectionId: number, events: CloudEvent[]): Promise<JournaledEvent[]> {
    return await atomically(this.db, async (tx) => {
      const rows: JournaledEvent[] = [];
      for (const event of events) {
        const row = await one(
          tx
            .insert(inboundJournal)
            .values({ whatsappId: connectionId, kind: event.kind, payload: JSON.stringify(event) })
            .returning({ id: inboundJournal.id }),
        );
        rows.push({ id: row.id, event });
      }
      return rows;
    });
  }

  async pending(connectionId: number): Promise<JournaledEvent[]> {
    const rows = await this.db
      .select()
      .from(inboundJournal)
      .where(eq(inboundJournal.whatsappId, connectionId))
      .orderBy(asc(inboundJournal.id));
    return rows
      .filter((row) => row.kind.startsWith("cloud."))
      .map((row) => ({ id: row.id, event: JSON.parse(row.payload) as CloudEvent }));
  }

  async handled(rowId: number) {
    await this.db.delete(inboundJournal).where(eq(inboundJournal.id, rowId));
  }
}
