import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam, str } from "../../http/fields";
import { PROVIDERS } from "../../shared/contracts/providers";
import { RULES } from "../../shared/validation";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { createConnection, deleteConnection, listConnections, showConnection, updateConnection } from "./service";

const text = (max = 30000) => t.Optional(t.String({ maxLength: max }));
const hour = t.Optional(
  t.String({
    pattern: "^([01]\\d|2[0-3]):[0-5]\\d$",
    maxLength: 5,
    rule: { pattern: /^([01]\d|2[0-3]):[0-5]\d$/, messages: { pattern: "Invalid time (HH:mm)" } },
  }),
);
const flag = t.Optional(t.Boolean());
const body = t.Object({
  name: str(RULES.connectionName),
  provider: t.Optional(t.Union(PROVIDERS.map((p) => t.Literal(p)))),
  isDefault: flag,
  isMultidevice: flag,
  greetingMessage: text(),
  farewellMessage: text(),
  transferTicketMessage: text(),
  outOfWorkMessage: text(),
  wavoip: text(500),
  defineWorkHours: flag,
  startWorkHour: hour,
  endWorkHour: hour,
  startWorkHourWeekend: hour,
  endWorkHourWeekend: hour,
  monday: flag,
  tuesday: flag,
  wednesday: flag,
  thursday: flag,
  friday: flag,
  saturday: flag,
  sunday: flag,
  importHistory: flag,
  importHistoryDays: t.Optional(t.Integer({ minimum: 1, maximum: 365 })),
  queueIds: t.Optional(t.Array(t.Integer({ minimum: 1 }), { maxItems: 500 })),
});

/** /whatsapp: connection CRUD; everyone reads (without the call token), `connections:manage` writes. */
export function connectionsRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/whatsapp" })
    .use(authContext(deps, tokens))
    .get("/", ({ user }) => listConnections(deps.db, user.profile), { auth: true })
    .get("/:id", ({ params, user }) => showConnection(deps.db, params.id, user.profile), {
      auth: true,
      params: idParam,
    })
    .post("/", ({ body }) => createConnection(deps, body), { auth: "connections:manage", body })
    .put("/:id", ({ params, body }) => updateConnection(deps, params.id, body), {
      auth: "connections:manage",
      params: idParam,
      body: t.Partial(body),
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
