import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { optOuts } from "../../db/schema";

/** True when the number sent the connection's opt-out keyword (and it was not cleared since). */
export function isOptedOut(db: Db, whatsappId: number, number: string): boolean {
  return !!db.select({ id: optOuts.id }).from(optOuts).where(and(eq(optOuts.whatsappId, whatsappId), eq(optOuts.number, number))).get();
}
