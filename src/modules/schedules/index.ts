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
    .get("/", ({ query }) => listSchedules(deps.db, query), {
      auth: true,
      query: ScheduleModel.list,
    })
    .get("/:id", ({ params }) => showSchedule(deps.db, params.id), { auth: true, params: idParam })
    .post("/", ({ body, user }) => createSchedule(deps, user, body), {
      auth: true,
      body: ScheduleModel.create,
    })
    .put("/:id", ({ params, body, user }) => updateSchedule(deps, user, params.id, body), {
      auth: true,
      params: idParam,
      body: ScheduleModel.update,
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
