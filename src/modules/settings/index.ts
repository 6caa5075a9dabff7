import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { SettingModel } from "./model";
import { listSettingRows, regenerateApiToken, updateSetting } from "./service";

/** /settings: global settings, admin only (they include the external API token). */
export function settingsRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/settings" })
    .use(authContext(deps, tokens))
    .get("/", async () => await listSettingRows(deps.db), { auth: "settings:manage" })
    .post("/userApiToken/regenerate", async () => await regenerateApiToken(deps), { auth: "settings:manage" })
    .put("/:key", async ({ params, body }) => await updateSetting(deps, params.key, body.value), {
      auth: "settings:manage",
      params: SettingModel.params,
      body: SettingModel.update,
    });
}
