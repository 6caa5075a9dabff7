import { createHmac, timingSafeEqual } from "node:crypto";
import type { Config } from "../config";
import type { Clock } from "../shared/clock";

/** A link stays valid at least this long after it was made, in seconds. */
export const MEDIA_LINK_LIFETIME = 3600;
/**
 * Expiries are rounded up to this step, so a file keeps the same link for a while: the browser's cache and the
 * chat's elements keep using it instead of reloading the file for each fresh signature.
 */
const EXPIRY_STEP = 900;

type LinkDeps = { config: Pick<Config, "jwtSecret">; clock: Clock };

/**
 * A message file's link that works without a header (`<img>`, `<audio>`, `<video>`, a download) yet stays
 * private: `/api/media/<id>?expires=<epoch s>&signature=<HMAC of id and expiry>`. It opens that one file, for
 * about an hour; whoever holds it can open it until then, like any link.
 */
export function signedMediaPath(deps: LinkDeps, messageId: number): string {
  const now = Math.floor(deps.clock.now() / 1000);
  const expires = Math.ceil((now + MEDIA_LINK_LIFETIME) / EXPIRY_STEP) * EXPIRY_STEP;
  return `/api/media/${messageId}?expires=${expires}&signature=${signature(deps, messageId, expires)}`;
}

/** True when `signature` was made here for this file with this expiry, and the expiry has not passed. */
export function isValidMediaSignature(deps: LinkDeps, messageId: number, expires: number, given: string): boolean {
  if (!Number.isSafeInteger(expires) || expires * 1000 <= deps.clock.now()) return false;
  const expected = Buffer.from(signature(deps, messageId, expires));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function signature(deps: LinkDeps, messageId: number, expires: number): string {
  // A key of its own, derived from the access-token secret: a media signature can never pass for a token's.
  const key = createHmac("sha256", deps.config.jwtSecret).update("zapdesk media links").digest();
  return createHmac("sha256", key).update(`${messageId}.${expires}`).digest("base64url");
}
