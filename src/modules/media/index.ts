import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import { idParam } from "../../http/fields";
import { publicOrigin } from "../../http/public-origin";
import { isValidMediaSignature, signedMediaPath } from "../../http/signed-links";
import { authContext, userFromAccessToken } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { MediaModel } from "./model";
import { mediaForUser, mediaOfMessage } from "./service";

/**
 * GET /media/:id serves a message's file: under the signed link answers and socket frames carry (which
 * `<img>`, `<audio>`, `<video>` and downloads open without a header; 403 ERR_LINK_EXPIRED once it expired
 * or when it was altered), or to a `Authorization: Bearer` caller who may see the message's ticket. Tokens are
 * never taken from the URL, where proxies and browsers would keep them. GET /media/:id/link gives a caller who
 * may see the file a fresh link, for a chat that stayed open longer than its links last.
 */
export function mediaRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/media" })
    .use(authContext(deps, tokens))
    .get(
      "/:id/link",
      async ({ user, params, request, server }) => {
        await mediaForUser(deps, user, params.id);
        return { url: publicOrigin(request, server, deps.config) + signedMediaPath(deps, params.id) };
      },
      { auth: true, params: idParam },
    )
    .get(
      "/:id",
      async ({ params, query, headers, set }) => {
        const media = await (query.signature !== undefined || query.expires !== undefined
          ? signedMedia(params.id, query)
          : mediaForUser(deps, await userFromAccessToken(deps, tokens, bearer(headers.authorization)), params.id));
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

  function signedMedia(messageId: number, query: { expires?: number; signature?: string }) {
    if (!isValidMediaSignature(deps, messageId, query.expires ?? 0, query.signature ?? ""))
      throw new AppError("ERR_LINK_EXPIRED", 403);
    return mediaOfMessage(deps, messageId);
  }
}

function bearer(header: string | undefined): string | undefined {
  return header?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
}
