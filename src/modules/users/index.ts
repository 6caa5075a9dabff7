import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps";
import { clientIp } from "../../http/client-ip";
import { fields, idParam } from "../../http/fields";
import { loginThrottleFor } from "../auth/login-throttle";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { listQuery } from "../../http/list-query";
import { createUser, deleteUser, listUsers, showUser, updateUser } from "./service";

const profile = t.Union([t.Literal("admin"), t.Literal("user")]);
const queueIds = t.Array(t.Integer({ minimum: 1 }), { maxItems: 500 });
const whatsappId = t.Union([t.Integer({ minimum: 1 }), t.Null(), t.Literal(0), t.Literal("")]);
const toConnection = (v: number | null | "" | undefined) => (v === undefined ? undefined : v || null);

/** /users: anyone reads; admins manage; everyone may edit their own name, email and password. */
export function usersRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/users" })
    .use(authContext(deps, tokens))
    .get("/", ({ query }) => listUsers(deps.db, query), { auth: true, query: listQuery })
    .get("/:id", ({ params }) => showUser(deps.db, params.id), { auth: true, params: idParam })
    .post("/", ({ body }) => createUser(deps, { ...body, whatsappId: toConnection(body.whatsappId) }), {
      auth: "users:manage",
      body: t.Object({
        name: fields.userName(),
        email: fields.email(),
        password: fields.password(),
        profile: t.Optional(profile),
        whatsappId: t.Optional(whatsappId),
        queueIds: t.Optional(queueIds),
      }),
    })
    .put(
      "/:id",
      ({ params, body, user, request, server }) => {
        const ip = clientIp(request, server, deps.config.trustProxy);
        const throttle = loginThrottleFor(deps);
        const attempts = {
          waitMs: () => throttle.waitFor(user.email, ip),
          failed: () => throttle.failed(user.email, ip),
          succeeded: () => throttle.succeeded(user.email, ip),
        };
        return updateUser(deps, user, params.id, { ...body, whatsappId: toConnection(body.whatsappId) }, attempts);
      },
      {
        auth: true,
        params: idParam,
        body: t.Object({
          name: fields.userName({ optional: true }),
          email: fields.email({ optional: true }),
          password: t.Optional(t.String({ maxLength: 50 })),
          currentPassword: t.Optional(t.String({ maxLength: 200 })),
          profile: t.Optional(profile),
          whatsappId: t.Optional(whatsappId),
          queueIds: t.Optional(queueIds),
        }),
      },
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
