import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { listSettingRows, regenerateApiToken, updateSetting } from "./service";

/** /settings: global settings, admin only (they include the external API token). */
export function settingsRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/settings" })
    .use(authContext(deps, tokens))
    .get("/", () => listSettingRows(deps.db), { auth: "settings:manage" })
    .post("/userApiToken/regenerate", () => regenerateApiToken(deps), { auth: "settings:manage" })
    .put("/:key", ({ params, body }) => updateSetting(deps, params.key, body.value), {
      auth: "settings:manage",
      params: t.Object({ key: t.String({ maxLength: 100 }) }),
      body: t.Object({ value: t.String({ maxLength: 200 }) }),
    });
}
