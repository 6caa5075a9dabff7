import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { AppError, forbidden, notFound } from "../../errors";
import { isValidSignature, signPath } from "../../http/signed-links";
import { backupPath, listBackups, takeBackupNow } from "../../ops/backup-job";
import { offsiteStatus, queueUpload } from "../../ops/backup-uploads";
import { can } from "../../shared/permissions";
import { authContext, userFromAccessToken } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { BackupModel } from "./model";

/** How long a backup's download link works, in seconds: it is asked for at the click. */
const DOWNLOAD_LINK_LIFETIME = 300;

const downloadPath = (name: string) => `/api/backups/${encodeURIComponent(name)}`;

/**
 * /backups, admins only: the backups in DATA_DIR/backups (scheduled and pre-migration), one taken now (see
 * takeBackupNow; uploaded off-site like a scheduled one), how the off-site copies go, and a download of one.
 * A download can't carry a header, so an admin first asks for a short-lived signed link to it (never a token in
 * the URL); the download itself also takes the Bearer header.
 */
export function backupsRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/backups" })
    .use(authContext(deps, tokens))
    .get("/", () => listBackups(deps.config), { auth: "settings:manage" })
    .post(
      "/",
      async () => {
        const name = takeBackupNow(deps.config, deps.clock.now());
        if (!name) throw new AppError("ERR_BACKUP_NOT_AVAILABLE", 409);
        await queueUpload(deps.jobs, deps.config, name);
        return listBackups(deps.config).find((b) => b.name === name)!;
      },
      { auth: "settings:manage" },
    )
    .get("/offsite", () => offsiteStatus(deps.db, deps.config), { auth: "settings:manage" })
    .post(
      "/:name/link",
      ({ params }) => {
        if (!backupPath(deps.config, params.name)) throw notFound("ERR_NOT_FOUND");
        return { url: signPath(deps, downloadPath(params.name), DOWNLOAD_LINK_LIFETIME) };
      },
      { auth: "settings:manage", params: BackupModel.params },
    )
    .get(
      "/:name",
      async ({ params, query, headers, set }) => {
        if (query.signature !== undefined || query.expires !== undefined) {
          if (!isValidSignature(deps, downloadPath(params.name), query.expires ?? 0, query.signature ?? ""))
            throw new AppError("ERR_LINK_EXPIRED", 403);
        } else {
          const bearer = headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
          const user = await userFromAccessToken(deps, tokens, bearer);
          if (!can(user.profile, "settings:manage")) throw forbidden();
        }
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
