import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { sameBytes } from "../../shared/constant-time";
import { getSetting } from "../settings/service";

const digest = (value: string) => Bun.CryptoHasher.hash("sha256", value) as Uint8Array;

/**
 * Checks `Authorization: Bearer <token>` against the `userApiToken` setting only (never any other setting's
 * value), in constant time: both sides are hashed first so their lengths cannot leak either. Returns the token.
 */
export async function assertApiToken(db: Db, authorization: string | null | undefined): Promise<string> {
  const token = authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  if (!token) throw new AppError("ERR_SESSION_EXPIRED", 401);
  const expected = await getSetting(db, "userApiToken");
  if (!expected || !sameBytes(digest(token), digest(expected))) throw new AppError("ERR_INVALID_API_TOKEN", 401);
  return token;
}
