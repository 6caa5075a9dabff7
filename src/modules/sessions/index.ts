import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { disconnectSession, newQr, restartAll, startSession } from "./service";

/** /whatsappsession/:id (try again, new QR, disconnect) and /system/restart; admin only. */
export function sessionRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia()
    .use(authContext(deps, tokens))
    .post("/whatsappsession/:id", ({ params }) => startSession(deps, params.id), {
      auth: "connections:manage",
      params: idParam,
    })
    .put("/whatsappsession/:id", ({ params }) => newQr(deps, params.id), {
      auth: "connections:manage",
      params: idParam,
    })
    .delete("/whatsappsession/:id", ({ params }) => disconnectSession(deps, params.id), {
      auth: "connections:manage",
      params: idParam,
    })
    .post("/system/restart", () => restartAll(deps), { auth: "connections:manage" });
}
