import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { listQuery } from "../../http/list-query";
import { clearContactOptOut, listContactOptOuts } from "./opt-out";
import { cleanFinished, deleteRecord, listReport, storeBulk } from "./service";

const item = t.Object({
  message: t.String({ minLength: 1, maxLength: 30000, pattern: "\\S" }),
  phone: t.String({ minLength: 1, maxLength: 50 }),
  whatsappId: t.Integer({ minimum: 1 }),
});

/** /bulkMessage: stores bulk sends and manages the shipping report; admins only. */
export function bulkRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/bulkMessage" })
    .use(authContext(deps, tokens))
    .post("/", ({ body }) => storeBulk(deps, body), {
      auth: "bulk:manage",
      body: t.Array(item, { minItems: 1, maxItems: 10_000 }),
    })
    .get("/report", ({ query }) => listReport(deps.db, query), { auth: "bulk:manage", query: listQuery })
    .delete(
      "/d/:id",
      ({ params }) => {
        deleteRecord(deps, params.id);
        return { message: "Registro deletado" };
      },
      { auth: "bulk:manage", params: idParam },
    )
    .delete(
      "/clean",
      () => {
        const removed = cleanFinished(deps);
        return { message: "Registro deletado", removed };
      },
      { auth: "bulk:manage" },
    );
}

const id = t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/** /contacts/:id/optOuts: where a contact opted out of bulk messages; everyone sees it, admins clear it. */
export function optOutRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia()
    .use(authContext(deps, tokens))
    .get("/contacts/:id/optOuts", ({ params }) => listContactOptOuts(deps.db, params.id), {
      auth: true,
      params: t.Object({ id }),
    })
    .delete(
      "/contacts/:id/optOuts/:whatsappId",
      ({ params }) => {
        clearContactOptOut(deps, params.id, params.whatsappId);
        return { message: "Registro deletado" };
      },
      { auth: "bulk:manage", params: t.Object({ id, whatsappId: id }) },
    );
}
