import type { Reader } from "../../db/client";
import { userDefaultConnection } from "../users/lookup";
import { globalDefaultConnection } from "./lookup";

/** The connection new work goes out on: the user's own default, else the global default; ERR_NO_DEF_WAPP_FOUND when neither exists. */
export async function defaultWhatsappId(db: Reader, userId: number | null | undefined): Promise<number> {
  const own = userId != null ? await userDefaultConnection(db, userId) : null;
  return own ?? (await globalDefaultConnection(db));
}
