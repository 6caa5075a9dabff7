import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { onboardingFor } from "./onboarding";
import { dashboardFor } from "./service";

/**
 * GET /dashboard: ticket counts by status and today's hourly chart, with the caller's queue visibility.
 * GET /dashboard/onboarding: the first-run checklist (admins).
 */
export function dashboardRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/dashboard" })
    .use(authContext(deps, tokens))
    .get("/", async ({ user }) => await dashboardFor(deps.db, user, deps.clock.now(), deps.config.timeZone), {
      auth: true,
    })
    .get("/onboarding", async () => await onboardingFor(deps.db, deps.config.sandbox), { auth: "settings:manage" });
}
