import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { BulkModel } from "./model";
import { clearContactOptOut, listContactOptOuts } from "./opt-out";
import { cleanReport, deleteRecord, listReport, storeBulk } from "./service";

/** /bulkMessage: stores bulk sends and manages the shipping report; admins only. */
export function bulkRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/bulkMessage" })
    .use(authContext(deps, tokens))
    .post("/", async ({ body }) => await storeBulk(deps, body), {
      auth: "bulk:manage",
      body: BulkModel.store,
    })
    .get("/report", async ({ query }) => await listReport(deps.db, query), {
      auth: "bulk:manage",
      query: BulkModel.list,
    })
    .delete(
      "/d/:id",
      async ({ params }) => {
        await deleteRecord(deps, params.id);
        return { message: "Registro deletado" };
      },
      { auth: "bulk:manage", params: idParam },
    )
    .delete(
      "/clean",
      async () => {
        const removed = await cleanReport(deps);
        return { message: "Registro deletado", removed };
      },
      { auth: "bulk:manage" },
    );
}

/** /contacts/:id/optOuts: where a contact opted out of bulk messages; everyone sees it, admins clear it. */
export function optOutRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia()
    .use(authContext(deps, tokens))
    .get("/contacts/:id/optOuts", async ({ params }) => await listContactOptOuts(deps.db, params.id), {
      auth: true,
      params: BulkModel.optOutParams,
    })
    .delete(
      "/contacts/:id/optOuts/:whatsappId",
      async ({ params }) => {
        await clearContactOptOut(deps, params.id, params.whatsappId);
        return { message: "Registro deletado" };
      },
      { auth: "bulk:manage", params: BulkModel.optOutDeleteParams },
    );
}
