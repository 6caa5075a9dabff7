import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { listDeliveries } from "./deliveries";
import { createEndpoint, deleteEndpoint, listEndpoints, updateEndpoint } from "./endpoints";

const events = t.Array(t.String({ maxLength: 50 }), { maxItems: 20 });

/** /webhooks: outbound webhook endpoints and their delivery log, admin only. */
export function webhooksRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/webhooks" })
    .use(authContext(deps, tokens))
    .get("/", () => listEndpoints(deps.db), { auth: "settings:manage" })
    .get("/deliveries", ({ query }) => listDeliveries(deps.db, query), {
      auth: "settings:manage",
      query: t.Object({
        endpointId: t.Optional(t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
        pageNumber: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000 })),
      }),
    })
    .post("/", ({ body }) => createEndpoint(deps.db, body), {
      auth: "settings:manage",
      body: t.Object({ url: t.String({ maxLength: 2000 }), events, active: t.Optional(t.Boolean()) }),
    })
    .put("/:id", ({ params, body }) => updateEndpoint(deps.db, params.id, body, deps.clock.now()), {
      auth: "settings:manage",
      params: idParam,
      body: t.Object({
        url: t.Optional(t.String({ maxLength: 2000 })),
        events: t.Optional(events),
        active: t.Optional(t.Boolean()),
      }),
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
