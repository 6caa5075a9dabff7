import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { clientIp } from "../../http/client-ip";
import { idParam } from "../../http/fields";
import { loginThrottleFor } from "../auth/login-throttle";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { chooseAvailability } from "./availability";
import { UserModel } from "./model";
import { createUser, deleteUser, listUsers, showUser, updateUser } from "./service";

const toConnection = (v: number | null | "" | false | undefined) => (v === undefined ? undefined : v || null);

/**
 * /users: anyone reads; admins manage; everyone may edit their own name, email and password, and choose their own
 * availability (admins anyone's).
 */
export function usersRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/users" })
    .use(authContext(deps, tokens))
    .get("/", async ({ query }) => await listUsers(deps.db, query), { auth: true, query: UserModel.list })
    .get("/:id", async ({ params }) => await showUser(deps.db, params.id), { auth: true, params: idParam })
    .post("/", ({ body }) => createUser(deps, { ...body, whatsappId: toConnection(body.whatsappId) }), {
      auth: "users:manage",
      body: UserModel.create,
    })
    .put(
      "/:id",
      ({ params, body, user, request, server }) => {
        const ip = clientIp(request, server, deps.config.trustProxy);
        const attempts = { begin: () => loginThrottleFor(deps).begin(user.email, ip) };
        return updateUser(deps, user, params.id, { ...body, whatsappId: toConnection(body.whatsappId) }, attempts);
      },
      {
        auth: true,
        params: idParam,
        body: UserModel.update,
      },
    )
    .put(
      "/:id/availability",
      async ({ params, body, user }) => await chooseAvailability(deps, user, params.id, body.availability),
      { auth: true, params: idParam, body: UserModel.availability },
    )
    .delete(
      "/:id",
      async ({ params, user }) => {
        await deleteUser(deps, user, params.id);
        return { message: "User deleted" };
      },
      { auth: "users:manage", params: idParam },
    );
}
