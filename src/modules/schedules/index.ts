import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { ScheduleModel } from "./model";
import { createSchedule, deleteSchedule, listSchedules, showSchedule, updateSchedule } from "./service";

/** /schedules: anyone creates; editing and deleting are for the creator or `schedules:editAny` (admins). */
export function schedulesRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/schedules" })
    .use(authContext(deps, tokens))
    .get("/", async ({ query }) => await listSchedules(deps.db, query), {
      auth: true,
      query: ScheduleModel.list,
    })
    .get("/:id", async ({ params }) => await showSchedule(deps.db, params.id), { auth: true, params: idParam })
    .post("/", async ({ body, user }) => await createSchedule(deps, user, body), {
      auth: true,
      body: ScheduleModel.create,
    })
    .put("/:id", async ({ params, body, user }) => await updateSchedule(deps, user, params.id, body), {
      auth: true,
      params: idParam,
      body: ScheduleModel.update,
    })
    .delete(
      "/:id",
      async ({ params, user }) => {
        await deleteSchedule(deps, user, params.id);
        return { message: "Schedule deleted" };
      },
      { auth: true, params: idParam },
    );
}
