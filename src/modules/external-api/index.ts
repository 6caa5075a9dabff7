import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { OPENAPI_DOCUMENT } from "./openapi";
import { ApiRateLimiter } from "./rate-limit";
import { readApiMessage } from "./read-body";
import { sendFromApi } from "./service";
import { assertApiToken } from "./token";

/**
 * The external API: POST /messages/send, authorised by the `userApiToken` setting instead of a user session,
 * and its OpenAPI description at /docs.
 */
export function externalApiRoutes(deps: AppDeps) {
  const limiter = new ApiRateLimiter(() => deps.clock.now());
  return new Elysia()
    .get("/docs", () => OPENAPI_DOCUMENT)
    .post(
      "/messages/send",
      async ({ request }) => {
        limiter.take(await assertApiToken(deps.db, request.headers.get("authorization")));
        return sendFromApi(deps, await readApiMessage(request, deps.config));
      },
      { parse: "none" },
    );
}
