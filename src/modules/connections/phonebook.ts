import { eq, sql } from "drizzle-orm";
import type { NormalizedContact } from "../../channels/types";
import type { Db, Reader } from "../../db/client";
import { whatsappPhonebook } from "../../db/schema";

/** Stores the phone book a connection reported (the source of the contacts import); upsert per (connection, phone). */
export function savePhonebook(db: Db, whatsappId: number, list: NormalizedContact[]) {
  const rows = list
    .filter((c) => /^\d{5,20}$/.test(c.phone))
    .map((c) => ({
      whatsappId,
      jid: `${c.phone}@s.whatsapp.net`,
      phone: c.phone,
      lid: c.lid ?? null,
      name: c.name?.slice(0, 200) ?? null,
    }));
  if (!rows.length) return;
  db.transaction((tx) => {
    for (const row of rows) {
      tx.insert(whatsappPhonebook)
        .values(row)
        .onConflictDoUpdate({
          target: [whatsappPhonebook.whatsappId, whatsappPhonebook.jid],
          set: {
            phone: row.phone,
            lid: sql`coalesce(excluded.lid, ${whatsappPhonebook.lid})`,
            name: sql`coalesce(excluded.name, ${whatsappPhonebook.name})`,
          },
        })
        .run();
    }
  });
}

/** What a connection's phone book holds (the source of the contacts import). */
export function phonebookOf(db: Reader, whatsappId: number) {
  return db.select().from(whatsappPhonebook).where(eq(whatsappPhonebook.whatsappId, whatsappId)).all();
}
