import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { AppError, forbidden } from "../../errors";
import { requestUser } from "./plugin";
import { assertApiToken } from "../external-api/token";
import type { Tokens } from "./tokens";
import { can, type Permission } from "../../shared/permissions";
import { bodyLimitFor } from "../../http/body-limits";
import { parseBody, readCapped } from "../../http/body-reader";
import { isAllowedOrigin } from "../../http/cors";
import { isCrossSite } from "../../http/cross-site";
import { SECURITY_HEADERS } from "../../http/security-headers";

const WITHOUT_BODY = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * What every request goes through before its route: the security headers; for the auth routes, JSON only and
 * no cross-site callers but the CORS_ORIGINS (a form on another site could otherwise log a victim into the
 * attacker's account);
 * and the body limit of the route. Bodies above the default are read only once the caller is known to be
 * allowed on that route, and every body is read through the limit, then parsed here (JSON depth bounded) in
 * place of Elysia's own parsers.
 */
export function requestGuard(deps: AppDeps, tokens: Tokens) {
  const limitOf = (request: Request, mediaType: string) =>
    bodyLimitFor(deps.config, request.method, new URL(request.url).pathname, mediaType);

  return new Elysia({ name: "request-guard" })
    .onRequest(async ({ request, server, set }) => {
      Object.assign(set.headers, SECURITY_HEADERS);
      if (WITHOUT_BODY.has(request.method)) return;
      const type = mediaTypeOf(request);
      if (new URL(request.url).pathname.startsWith("/api/auth/")) {
        const listed = isAllowedOrigin(deps.config, request.headers.get("origin"));
        if (!listed && isCrossSite(request, server, deps.config.trustProxy)) throw forbidden();
        if (type && type !== "application/json") throw new AppError("ERR_INVALID_BODY", 415);
      }
      const limit = limitOf(request, type);
      if (limit.auth) await assertMaySend(request, limit.auth);
      if (Number(request.headers.get("content-length")) > limit.bytes) throw new AppError("ERR_PAYLOAD_TOO_LARGE", 413);
    })
    .onParse({ as: "global" }, async ({ request }) => {
      const type = mediaTypeOf(request);
      const limit = limitOf(request, type);
      // Anything but undefined stops Elysia's parsers, which would read the body without a limit.
      if (limit.ownReader) return null;
      return parseBody(await readCapped(request, limit.bytes), type, request.headers.get("content-type") ?? "");
    });

  async function assertMaySend(request: Request, rule: true | Permission | "apiToken") {
    if (rule === "apiToken") {
      await assertApiToken(deps.db, request.headers.get("authorization"));
      return;
    }
    const user = await requestUser(deps, tokens, request);
    if (rule !== true && !can(user.profile, rule)) throw forbidden();
  }
}

function mediaTypeOf(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}
