import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam, str } from "../../http/fields";
import { RULES } from "../../shared/validation";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { listQuery } from "../../http/list-query";
import { createSchedule, deleteSchedule, listSchedules, showSchedule, updateSchedule } from "./service";

const body = t.Object({
  body: str(RULES.scheduleBody),
  contactId: t.Integer({ minimum: 1 }),
  sendAt: t.String({ minLength: 1, maxLength: 40, rule: RULES.scheduleSendAt }),
});

/** /schedules: anyone creates; editing and deleting are for the creator or `schedules:editAny` (admins). */
export function schedulesRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/schedules" })
    .use(authContext(deps, tokens))
    .get("/", ({ query }) => listSchedules(deps.db, query), {
      auth: true,
      query: t.Object({
        ...listQuery.properties,
        contactId: t.Optional(t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
        userId: t.Optional(t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
      }),
    })
    .get("/:id", ({ params }) => showSchedule(deps.db, params.id), { auth: true, params: idParam })
    .post("/", ({ body, user }) => createSchedule(deps, user, body), {
      auth: true,
      body: t.Object({
        ...body.properties,
        userId: t.Optional(t.Union([t.Integer(), t.Null()])),
        ticketId: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
      }),
    })
    .put("/:id", ({ params, body, user }) => updateSchedule(deps, user, params.id, body), {
      auth: true,
      params: idParam,
      body: t.Partial(body),
    })
    .delete(
      "/:id",
      ({ params, user }) => {
        deleteSchedule(deps, user, params.id);
        return { message: "Schedule deleted" };
      },
      { auth: true, params: idParam },
    );
}
