import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import { toUserDto } from "../users/service";
import { AuthModel } from "./model";
import { authContext } from "./plugin";
import { SlidingWindowLimiter } from "./rate-limit";
import { authenticate, revokeSessions, signup, userFromRefreshToken } from "./service";
import type { Tokens } from "./tokens";

export const REFRESH_COOKIE = "rt";

/** /auth: login, refresh, logout, signup. The refresh token lives only in an httpOnly cookie. */
export function authRoutes(deps: AppDeps, tokens: Tokens) {
  const perIp = new SlidingWindowLimiter(5, 20_000, () => deps.clock.now());
  const perEmail = new SlidingWindowLimiter(20, 5 * 60_000, () => deps.clock.now());
  const cookieOptions = {
    httpOnly: true,
    sameSite: "lax" as const,
    path: "/",
    secure: deps.config.secureCookies,
    maxAge: deps.config.refreshTokenTtl,
  };

  return new Elysia({ prefix: "/auth" })
    .use(authContext(deps, tokens))
    .post(
      "/login",
      async ({ body, cookie, request, server }) => {
        const ip = clientIp(request, server, deps.config.trustProxy);
        const wait = Math.max(perIp.hit(ip), perEmail.hit(body.email.trim().toLowerCase()));
        if (wait > 0) throw new AppError("ERR_TOO_MANY_ATTEMPTS", 429, { retryAfter: Math.ceil(wait / 1000) });
        const user = await authenticate(deps, body.email, body.password);
        cookie[REFRESH_COOKIE]!.set({ value: await tokens.signRefresh(user), ...cookieOptions });
        return { token: await tokens.signAccess(user), user: toUserDto(deps.db, user) };
      },
      { body: AuthModel.login },
    )
    .post("/refresh_token", async ({ cookie }) => {
      const jar = cookie[REFRESH_COOKIE]!;
      try {
        const user = await userFromRefreshToken(deps, tokens, jar.value as string | undefined);
        jar.set({ value: await tokens.signRefresh(user), ...cookieOptions });
        return { token: await tokens.signAccess(user), user: toUserDto(deps.db, user) };
      } catch (error) {
        jar.remove();
        throw error;
      }
    })
    .delete(
      "/logout",
      ({ user, cookie }) => {
        revokeSessions(deps, user.id);
        cookie[REFRESH_COOKIE]!.remove();
        return { message: "Logged out" };
      },
      { auth: true },
    )
    .post(
      "/signup",
      async ({ body }) => {
        const user = await signup(deps, body);
        const dto = toUserDto(deps.db, user);
        deps.hub.publish("all", "user", { action: "create", user: dto });
        return dto;
      },
      { body: AuthModel.signup },
    );
}

function clientIp(request: Request, server: { requestIP(r: Request): { address: string } | null } | null, trustProxy: boolean) {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return server?.requestIP(request)?.address ?? "local";
}
