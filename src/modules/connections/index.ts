import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { requestLang } from "../../http/request-lang";
import { withDefaultSurvey } from "./csat-default";
import { ConnectionModel } from "./model";
import { createConnection, deleteConnection, listConnections, showConnection, updateConnection } from "./service";
import { listTemplates } from "./templates";

/** /whatsapp: connection CRUD; everyone reads (without the call token), `connections:manage` writes. */
export function connectionsRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/whatsapp" })
    .use(authContext(deps, tokens))
    .get("/", async ({ user }) => await listConnections(deps.db, user.profile), { auth: true })
    .get("/:id", async ({ params, user }) => await showConnection(deps.db, params.id, user.profile), {
      auth: true,
      params: idParam,
    })
    .get("/:id/templates", async ({ params }) => await listTemplates(deps, params.id), {
      auth: true,
      params: idParam,
    })
    .post(
      "/",
      async ({ body, request }) => await createConnection(deps, withDefaultSurvey(body, requestLang(request))),
      {
        auth: "connections:manage",
        body: ConnectionModel.create,
      },
    )
    .put("/:id", async ({ params, body }) => await updateConnection(deps, params.id, body), {
      auth: "connections:manage",
      params: idParam,
      body: ConnectionModel.update,
    })
    .delete(
      "/:id",
      async ({ params }) => {
        await deleteConnection(deps, params.id);
        return { message: "Whatsapp deleted." };
      },
      { auth: "connections:manage", params: idParam },
    );
}
