import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { WebhookModel } from "./model";
import { listDeliveries } from "./deliveries";
import { createEndpoint, deleteEndpoint, listEndpoints, updateEndpoint } from "./endpoints";

/** /webhooks: outbound webhook endpoints and their delivery log, admin only. */
export function webhooksRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/webhooks" })
    .use(authContext(deps, tokens))
    .get("/", () => listEndpoints(deps.db), { auth: "settings:manage" })
    .get("/deliveries", ({ query }) => listDeliveries(deps.db, query), {
      auth: "settings:manage",
      query: WebhookModel.deliveriesQuery,
    })
    .post("/", ({ body }) => createEndpoint(deps.db, body), {
      auth: "settings:manage",
      body: WebhookModel.create,
    })
    .put("/:id", ({ params, body }) => updateEndpoint(deps.db, params.id, body, deps.clock.now()), {
      auth: "settings:manage",
      params: idParam,
      body: WebhookModel.update,
    })
    .delete(
      "/:id",
      ({ params }) => {
        deleteEndpoint(deps.db, params.id);
        return { ok: true };
      },
      { auth: "settings:manage", params: idParam },
    );
}
