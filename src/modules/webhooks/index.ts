import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { WebhookModel } from "./model";
import { listDeliveries } from "./deliveries";
import { createEndpoint, deleteEndpoint, listEndpoints, updateEndpoint } from "./endpoints";
import { targetPolicy } from "./target-check";

/** /webhooks: outbound webhook endpoints and their delivery log, admin only. */
export function webhooksRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/webhooks" })
    .use(authContext(deps, tokens))
    .get("/", async () => await listEndpoints(deps.db), { auth: "settings:manage" })
    .get("/deliveries", async ({ query }) => await listDeliveries(deps.db, query), {
      auth: "settings:manage",
      query: WebhookModel.deliveriesQuery,
    })
    .post("/", async ({ body }) => await createEndpoint(deps, body, targetPolicy(deps)), {
      auth: "settings:manage",
      body: WebhookModel.create,
    })
    .put(
      "/:id",
      async ({ params, body }) => await updateEndpoint(deps, params.id, body, deps.clock.now(), targetPolicy(deps)),
      {
        auth: "settings:manage",
        params: idParam,
        body: WebhookModel.update,
      },
    )
    .delete(
      "/:id",
      async ({ params }) => {
        await deleteEndpoint(deps, params.id);
        return { ok: true };
      },
      { auth: "settings:manage", params: idParam },
    );
}
