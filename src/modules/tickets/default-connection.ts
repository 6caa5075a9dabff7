import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { users, whatsapps } from "../../db/schema";
import { AppError } from "../../errors";

/** The connection new work goes out on: the user's own default, else the global default; ERR_NO_DEF_WAPP_FOUND when neither exists. */
export function defaultWhatsappId(db: Db, userId: number | null | undefined): number {
  if (userId != null) {
    const own = db.select({ whatsappId: users.whatsappId }).from(users).where(eq(users.id, userId)).get();
    if (own?.whatsappId != null) return own.whatsappId;
  }
  const global = db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(eq(whatsapps.isDefault, true))
    .orderBy(whatsapps.id)
    .get();
  if (!global) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
  return global.id;
}
