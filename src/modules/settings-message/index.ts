import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { SettingsMessageModel } from "./model";
import { getFirstSettingsMessage, getSettingsMessage, saveSettingsMessage } from "./service";

/** /settingsMessage: bulk-send throttling per connection, admins only. */
export function settingsMessageRoutes(deps: AppDeps, tokens: Tokens) {
  return (
    new Elysia({ prefix: "/settingsMessage" })
      .use(authContext(deps, tokens))
      // Without an id (the whaticket family's page asks so on every visit): the first non-default connection's.
      .get("/", async () => (await getFirstSettingsMessage(deps.db)) ?? {}, { auth: "bulk:manage" })
      .get("/:whatsappId", async ({ params }) => (await getSettingsMessage(deps.db, params.whatsappId)) ?? {}, {
        auth: "bulk:manage",
        params: SettingsMessageModel.params,
      })
      .post("/", async ({ body }) => await saveSettingsMessage(deps, body), {
        auth: "bulk:manage",
        body: SettingsMessageModel.save,
      })
  );
}
