import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { SettingsMessageModel } from "./model";
import { getSettingsMessage, saveSettingsMessage } from "./service";

/** /settingsMessage: bulk-send throttling per connection, admins only. */
export function settingsMessageRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/settingsMessage" })
    .use(authContext(deps, tokens))
    .get("/:whatsappId", ({ params }) => getSettingsMessage(deps.db, params.whatsappId) ?? {}, {
      auth: "bulk:manage",
      params: SettingsMessageModel.params,
    })
    .post("/", ({ body }) => saveSettingsMessage(deps, body), {
      auth: "bulk:manage",
      body: SettingsMessageModel.save,
    });
}
