import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import { clientIp, type PeerSource, requestIsHttps } from "../../http/client-ip";
import { isAllowedOrigin } from "../../http/cors";
import { isOtherSite } from "../../http/cross-site";
import { toUserDto } from "../users/service";
import { loginThrottleFor } from "./login-throttle";
import { AuthModel } from "./model";
import { authContext } from "./plugin";
import { SlidingWindowLimiter } from "./rate-limit";
import {
  authenticate,
  endDeviceSession,
  revokeSessions,
  type Session,
  sessionFromRefreshToken,
  signup,
  startSession,
} from "./service";
import type { Tokens } from "./tokens";

export const REFRESH_COOKIE = "rt";

const tooMany = (waitMs: number) =>
  new AppError("ERR_TOO_MANY_ATTEMPTS", 429, { retryAfter: Math.ceil(waitMs / 1000) });

/** /auth: login, refresh, logout (this device or every device), signup. The refresh token lives only in an httpOnly cookie. */
export function authRoutes(deps: AppDeps, tokens: Tokens) {
  const throttle = loginThrottleFor(deps);
  const signupsPerAddress = new SlidingWindowLimiter(10, 3600_000, () => deps.clock.now());
  // A page of a CORS_ORIGINS origin on another site gets its cookie only with SameSite=None, which browsers
  // accept only with Secure (so such a frontend needs HTTPS, or localhost). One on the same site (another port
  // or subdomain) gets a Lax cookie like our own pages, also over plain HTTP.
  const cookieOptions = (request: Request, server: PeerSource) => {
    const otherSite =
      isAllowedOrigin(deps.config, request.headers.get("origin")) &&
      isOtherSite(request, server, deps.config.trustProxy);
    return {
      httpOnly: true,
      sameSite: otherSite ? ("none" as const) : ("lax" as const),
      path: "/",
      secure: otherSite || deps.config.secureCookies || requestIsHttps(request, server, deps.config.trustProxy),
      maxAge: deps.config.refreshTokenTtl,
    };
  };
  const answer = async (session: Session) => ({
    token: await tokens.signAccess(session.user, session.familyId),
    user: await toUserDto(deps.db, session.user),
  });

  return new Elysia({ prefix: "/auth" })
    .use(authContext(deps, tokens))
    .post(
      "/login",
      async ({ body, cookie, request, server }) => {
        const user = await authenticate(deps, throttle, body, clientIp(request, server, deps.config.trustProxy));
        const session = await startSession(deps, user);
        cookie[REFRESH_COOKIE]!.set({
          value: await tokens.signRefresh(user, { id: session.familyId, generation: session.generation }),
          ...cookieOptions(request, server),
        });
        return answer(session);
      },
      { body: AuthModel.login },
    )
    .post("/refresh_token", async ({ cookie, request, server }) => {
      const jar = cookie[REFRESH_COOKIE]!;
      try {
        const session = await sessionFromRefreshToken(deps, tokens, jar.value as string | undefined, { rotate: true });
        jar.set({
          value: await tokens.signRefresh(session.user, { id: session.familyId, generation: session.generation }),
          ...cookieOptions(request, server),
        });
        return answer(session);
      } catch (error) {
        jar.remove();
        throw error;
      }
    })
    .delete(
      "/logout",
      async ({ user, cookie }) => {
        await endDeviceSession(deps, user);
        cookie[REFRESH_COOKIE]!.remove();
        return { message: "Logged out" };
      },
      { auth: true },
    )
    .post(
      "/logout-all",
      async ({ user, cookie }) => {
        await revokeSessions(deps, user.id);
        cookie[REFRESH_COOKIE]!.remove();
        return { message: "Logged out everywhere" };
      },
      { auth: true },
    )
    .post(
      "/signup",
      async ({ body, request, server }) => {
        const wait = signupsPerAddress.hit(clientIp(request, server, deps.config.trustProxy));
        if (wait > 0) throw tooMany(wait);
        return signup(deps, body);
      },
      { body: AuthModel.signup },
    );
}
