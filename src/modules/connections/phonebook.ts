import { atomically, type Db, type Reader } from "../../db/client";
import { eq, sql } from "drizzle-orm";
import type { NormalizedContact } from "../../channels/types";
import { connectionPhonebook } from "../../db/tables";

/** Stores the phone book a connection reported (the source of the contacts import); upsert per (connection, phone). */
export async function savePhonebook(db: Db, connectionId: number, list: NormalizedContact[]) {
  const rows = list
    .filter((c) => /^\d{5,20}$/.test(c.phone))
    .map((c) => ({
      whatsappId: connectionId,
      jid: `${c.phone}@s.whatsapp.net`,
      phone: c.phone,
      lid: c.lid ?? null,
      name: c.name?.slice(0, 200) ?? null,
    }));
  if (!rows.length) return;
  await atomically(db, async (tx) => {
    for (const row of rows) {
      await tx
        .insert(connectionPhonebook)
        .values(row)
        .onConflictDoUpdate({
          target: [connectionPhonebook.whatsappId, connectionPhonebook.jid],
          set: {
            phone: row.phone,
            lid: sql`coalesce(excluded.lid, ${connectionPhonebook.lid})`,
            name: sql`coalesce(excluded.name, ${connectionPhonebook.name})`,
          },
        });
    }
  });
}

/** What a connection's phone book holds (the source of the contacts import). */
export async function phonebookOf(db: Reader, connectionId: number) {
  return await db.select().from(connectionPhonebook).where(eq(connectionPhonebook.whatsappId, connectionId));
}
