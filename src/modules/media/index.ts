import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { userFromAccessToken } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { MediaModel } from "./model";
import { mediaForUser } from "./service";

/**
 * GET /media/:id serves a message's file to users who may see its ticket. Browsers can't add an
 * Authorization header to <img>/<audio>/<video> src, so the access token is also accepted as `?token=`.
 */
export function mediaRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/media" }).get(
    "/:id",
    async ({ params, query, headers, set }) => {
      const bearer = headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
      const user = await userFromAccessToken(deps, tokens, bearer ?? query.token);
      const media = await mediaForUser(deps, user, params.id);
      const name = encodeURIComponent(media.fileName);
      set.headers["content-type"] = media.mimetype;
      set.headers["x-content-type-options"] = "nosniff";
      set.headers["content-security-policy"] = "default-src 'none'; sandbox";
      set.headers["cache-control"] = "private, max-age=3600";
      set.headers["content-disposition"] = `${media.inline ? "inline" : "attachment"}; filename*=UTF-8''${name}`;
      return Bun.file(media.path);
    },
    { params: idParam, query: MediaModel.query },
  );
}
