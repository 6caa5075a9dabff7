import { Elysia } from "elysia";
import type { AppDeps } from "./deps";
import { largestBodyLimit } from "./http/body-limits";
import { cors } from "./http/cors";
import { errorHandler } from "./http/error-handler";
import { authRoutes } from "./modules/auth/index";
import { requestGuard } from "./modules/auth/request-guard";
import { socketAccess } from "./modules/auth/socket-access";
import { createTokens } from "./modules/auth/tokens";
import { sandboxRoutes } from "./modules/sandbox/index";
import { sessionRoutes } from "./modules/sessions/index";
import { settingsRoutes } from "./modules/settings/index";
import { bulkRoutes, optOutRoutes } from "./modules/bulk/index";
import { connectionsRoutes } from "./modules/connections/index";
import { contactsRoutes } from "./modules/contacts/index";
import { queuesRoutes } from "./modules/queues/index";
import { quickAnswersRoutes } from "./modules/quick-answers/index";
import { schedulesRoutes } from "./modules/schedules/index";
import { settingsMessageRoutes } from "./modules/settings-message/index";
import { tagsRoutes } from "./modules/tags/index";
import { usersRoutes } from "./modules/users/index";
import { ticketRoutes } from "./modules/tickets/index";
import { dashboardRoutes } from "./modules/dashboard/index";
import { reportsRoutes } from "./modules/reports/index";
import { messageRoutes } from "./modules/messages/index";
import { presenceRoutes } from "./modules/presence/index";
import { externalApiRoutes } from "./modules/external-api/index";
import { webhooksRoutes } from "./modules/webhooks/index";
import { aiRoutes } from "./modules/ai/index";
import { cloudWebhookRoutes } from "./modules/cloud-webhooks/index";
import { mediaRoutes } from "./modules/media/index";
import { backupsRoutes } from "./modules/backups/index";
import { monitoringRoutes } from "./monitoring/routes";
import { realtimeRoutes } from "./realtime/routes";
import { socketServerOptions } from "./realtime/limits";
import { pagesRoutes } from "./web/pages/index";
import { publicAssets } from "./web/static";

/** Composes the HTTP app from its plugins; pure (no env, no listen), so tests build one per database. */
export async function createApp(deps: AppDeps) {
  const tokens = createTokens(deps.config);
  const api = new Elysia({ prefix: "/api" })
    .use(authRoutes(deps, tokens))
    .use(settingsRoutes(deps, tokens))
    .use(sandboxRoutes(deps, tokens))
    .use(sessionRoutes(deps, tokens))
    .use(usersRoutes(deps, tokens))
    .use(contactsRoutes(deps, tokens))
    .use(queuesRoutes(deps, tokens))
    .use(quickAnswersRoutes(deps, tokens))
    .use(tagsRoutes(deps, tokens))
    .use(schedulesRoutes(deps, tokens))
    .use(settingsMessageRoutes(deps, tokens))
    .use(bulkRoutes(deps, tokens))
    .use(optOutRoutes(deps, tokens))
    .use(connectionsRoutes(deps, tokens))
    .use(ticketRoutes(deps, tokens))
    .use(dashboardRoutes(deps, tokens))
    .use(reportsRoutes(deps, tokens))
    .use(externalApiRoutes(deps))
    .use(messageRoutes(deps, tokens))
    .use(presenceRoutes(deps, tokens))
    .use(mediaRoutes(deps, tokens))
    .use(backupsRoutes(deps, tokens))
    .use(webhooksRoutes(deps, tokens))
    .use(aiRoutes(deps, tokens))
    .use(cloudWebhookRoutes(deps));

  return new Elysia({ serve: { maxRequestBodySize: largestBodyLimit(deps.config) }, websocket: socketServerOptions })
    .use(errorHandler(deps.log))
    .use(cors(deps.config))
    .use(requestGuard(deps, tokens))
    .use(monitoringRoutes(deps))
    .use(api)
    .use(realtimeRoutes(deps, socketAccess(deps, tokens)))
    .use(publicAssets())
    .use(pagesRoutes(deps, tokens));
}

export type App = Awaited<ReturnType<typeof createApp>>;
