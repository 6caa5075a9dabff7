import { Elysia } from "elysia";
import type { AppDeps } from "./deps";
import { errorHandler } from "./http/error-handler";
import { authRoutes } from "./modules/auth/index";
import { createTokens } from "./modules/auth/tokens";
import { settingsRoutes } from "./modules/settings/index";
import { realtimeRoutes } from "./realtime/routes";

/** Composes the HTTP app from its plugins; pure (no env, no listen), so tests build one per database. */
export async function createApp(deps: AppDeps) {
  const tokens = createTokens(deps.config);
  const api = new Elysia({ prefix: "/api" }).use(authRoutes(deps, tokens)).use(settingsRoutes(deps, tokens));

  return new Elysia({ serve: { maxRequestBodySize: 110 * 1024 * 1024 } })
    .use(errorHandler(deps.log))
    .get("/health", () => ({ status: "ok" }))
    .use(api)
    .use(realtimeRoutes(deps, tokens));
}

export type App = Awaited<ReturnType<typeof createApp>>;
