import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { forbidden, notFound } from "../../errors";
import { backupPath, listBackups } from "../../ops/backup-job";
import { can } from "../../shared/permissions";
import { authContext, userFromAccessToken } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { BackupModel } from "./model";

/**
 * /backups, admins only: the backups in DATA_DIR/backups (scheduled and pre-migration), and a download of one.
 * A download link can't carry a header, so the access token is also accepted as `?token=` (as for media).
 */
export function backupsRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/backups" })
    .use(authContext(deps, tokens))
    .get("/", () => listBackups(deps.config), { auth: "settings:manage" })
    .get(
      "/:name",
      async ({ params, query, headers, set }) => {
        const bearer = headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
        const user = await userFromAccessToken(deps, tokens, bearer ?? query.token);
        if (!can(user.profile, "settings:manage")) throw forbidden();
        const path = backupPath(deps.config, params.name);
        if (!path) throw notFound("ERR_NOT_FOUND");
        set.headers["content-type"] = "application/vnd.sqlite3";
        set.headers["content-disposition"] = `attachment; filename="${params.name}"`;
        set.headers["cache-control"] = "no-store";
        return Bun.file(path);
      },
      {
        params: BackupModel.params,
        query: BackupModel.query,
      },
    );
}
