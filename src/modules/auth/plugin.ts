import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { AppError, forbidden } from "../../errors";
import { can, type Permission } from "../../shared/permissions";
import type { AuthUser } from "../../shared/auth-user";
import { currentSessionUser } from "./session-user";
import type { Tokens } from "./tokens";
import { userRequestLimiterFor } from "./user-request-limiter";

let instances = 0;

/**
 * The `auth` macro every protected route opts into: `{ auth: true }` for any signed-in user, or
 * `{ auth: "<permission>" }` to also require a permission of the role table. Handlers then get `user`.
 * No token → 401; an expired or otherwise invalid one → 403 ERR_SESSION_EXPIRED (the client refreshes once and
 * retries, and a failed refresh answers 401); a token of an ended session → 401. A user with too many requests
 * in progress or too many in a short while → 429 ERR_TOO_MANY_REQUESTS with Retry-After, right after the session
 * check and before the route does anything.
 */
export function authContext(deps: AppDeps, tokens: Tokens) {
  // Checked in `transform`, which runs before body validation, so a caller without the right never learns
  // anything from validation answers; `resolve` then hands the same answer to the handler.
  const limiter = userRequestLimiterFor(deps);
  const releases = new WeakMap<Request, () => void>();
  return new Elysia({ name: "auth.context", seed: ++instances }).macro({
    auth: (rule: true | Permission) => ({
      async transform({ request }: { request: Request }) {
        const user = await requestUser(deps, tokens, request);
        if (rule !== true && !can(user.profile, rule)) throw forbidden();
        const admission = limiter.admit(user.id);
        if (!admission.admitted)
          throw new AppError("ERR_TOO_MANY_REQUESTS", 429, { retryAfter: Math.ceil(admission.retryAfterMs / 1000) });
        releases.set(request, admission.release);
      },
      async resolve({ request }) {
        return { user: await requestUser(deps, tokens, request) };
      },
      // Runs once the answer is out, whether the route answered or failed (an error answer included).
      afterResponse({ request }: { request: Request }) {
        releases.get(request)?.();
      },
    }),
  });
}

/**
 * The user behind a request's access token, checked once per request: the request guard checks it before
 * reading a large body, and the `auth` macro then takes that answer instead of querying the session again.
 * Kept per app (by its tokens), so two apps in one process never share an answer.
 */
export async function requestUser(deps: AppDeps, tokens: Tokens, request: Request): Promise<AuthUser> {
  let checked = checkedRequests.get(tokens);
  if (!checked) checkedRequests.set(tokens, (checked = new WeakMap()));
  const known = checked.get(request);
  if (known) return known;
  const user = await userFromAccessToken(deps, tokens, bearer(request.headers.get("authorization")));
  checked.set(request, user);
  return user;
}

const checkedRequests = new WeakMap<Tokens, WeakMap<Request, AuthUser>>();

/** Resolves an access token to its user, or throws the refusal the client expects. */
export async function userFromAccessToken(deps: AppDeps, tokens: Tokens, token: string | undefined): Promise<AuthUser> {
  return (await sessionFromAccessToken(deps, tokens, token)).user;
}

/** Like `userFromAccessToken`, with the token's expiry (epoch ms) for sockets that outlive a request. */
export async function sessionFromAccessToken(
  deps: AppDeps,
  tokens: Tokens,
  token: string | undefined,
): Promise<{ user: AuthUser; expiresAt: number }> {
  const verified = await tokens.verifyAccess(token);
  if (!token) throw new AppError("ERR_SESSION_EXPIRED", 401);
  if (verified.status !== "ok") throw new AppError("ERR_SESSION_EXPIRED", 403);
  const user = await currentSessionUser(deps.db, {
    id: verified.userId,
    tokenVersion: verified.tokenVersion,
    familyId: verified.familyId,
  });
  if (!user) throw new AppError("ERR_SESSION_EXPIRED", 401);
  return { user, expiresAt: verified.expiresAt };
}

function bearer(header: string | null): string | undefined {
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim();
}
