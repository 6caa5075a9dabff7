import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { getSettingsMessage, saveSettingsMessage } from "./service";

const count = (max: number) => t.Optional(t.Integer({ minimum: 0, maximum: max }));

/** /settingsMessage: bulk-send throttling per connection, admins only. */
export function settingsMessageRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/settingsMessage" })
    .use(authContext(deps, tokens))
    .get("/:whatsappId", ({ params }) => getSettingsMessage(deps.db, params.whatsappId) ?? {}, {
      auth: "bulk:manage",
      params: t.Object({ whatsappId: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
    })
    .post("/", ({ body }) => saveSettingsMessage(deps, body), {
      auth: "bulk:manage",
      body: t.Object({
        whatsappId: t.Integer({ minimum: 1 }),
        limit: count(1_000_000),
        minutes: count(100_000),
        seconds: count(1_000),
        contacts: t.Optional(t.Boolean()),
        contact: t.Optional(t.Boolean()),
        photo: t.Optional(t.Boolean()),
        random: t.Optional(t.Boolean()),
        optOut: t.Optional(t.String({ maxLength: 1000 })),
      }),
    });
}
