import type { Config } from "../config";
import type { Clock } from "../shared/clock";
import { sameBytes } from "../shared/constant-time";

/** A media link stays valid at least this long after it was made, in seconds. */
export const MEDIA_LINK_LIFETIME = 3600;
/**
 * Media expiries are rounded up to this step, so a file keeps the same link for a while: the browser's cache and
 * the chat's elements keep using it instead of loading the file again for each fresh signature.
 */
const MEDIA_EXPIRY_STEP = 900;

type LinkDeps = { config: Pick<Config, "jwtSecret">; clock: Clock };

/**
 * A link to `path` that works without a header (`<img>`, `<audio>`, `<video>`, a download) yet stays private:
 * `<path>?expires=<epoch s>&signature=<HMAC of path and expiry>`. It opens that one path until it expires;
 * whoever holds it can open it until then, like any link, so it never carries a token.
 */
export function signPath(deps: LinkDeps, path: string, lifetime: number, step = 1): string {
  const now = Math.floor(deps.clock.now() / 1000);
  const expires = Math.ceil((now + lifetime) / step) * step;
  return `${path}?expires=${expires}&signature=${signature(deps, path, expires)}`;
}

/** True when `given` was made here for `path` with this expiry, and the expiry has not passed. */
export function isValidSignature(deps: LinkDeps, path: string, expires: number, given: string): boolean {
  if (!Number.isSafeInteger(expires) || expires * 1000 <= deps.clock.now()) return false;
  return sameBytes(given, signature(deps, path, expires));
}

/** The path a message's file is served under (without a signature it needs the Bearer header). */
const mediaPath = (messageId: number) => `/api/media/${messageId}`;

/** A message file's signed link, valid for about an hour. */
export function signedMediaPath(deps: LinkDeps, messageId: number): string {
  return signPath(deps, mediaPath(messageId), MEDIA_LINK_LIFETIME, MEDIA_EXPIRY_STEP);
}

/** True when a media link's expiry and signature were made here for that message's file and are still valid. */
export function isValidMediaSignature(deps: LinkDeps, messageId: number, expires: number, given: string): boolean {
  return isValidSignature(deps, mediaPath(messageId), expires, given);
}

function signature(deps: LinkDeps, path: string, expires: number): string {
  // A key of its own, derived from the access-token secret: a link's signature can never pass for a token's.
  const key = new Bun.CryptoHasher("sha256", deps.config.jwtSecret).update("zapdesk signed links").digest();
  return new Bun.CryptoHasher("sha256", key).update(`${path}\n${expires}`).digest("base64url");
}
