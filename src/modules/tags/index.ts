import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { TagModel } from "./model";
import { createTag, deleteTag, listAllTags, listTags, showTag, updateTag } from "./service";

/** /tags CRUD and lists (the ticket tag sync lives with tickets). Anyone creates; a tag is edited or deleted by its creator or with `tags:edit`. */
export function tagsRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/tags" })
    .use(authContext(deps, tokens))
    .get("/", async ({ query }) => await listTags(deps.db, query), { auth: true, query: TagModel.list })
    .get("/list", async ({ query }) => await listAllTags(deps.db, query.searchParam), {
      auth: true,
      query: TagModel.listAllQuery,
    })
    .get("/:id", async ({ params }) => await showTag(deps.db, params.id), { auth: true, params: idParam })
    .post("/", async ({ body, user }) => await createTag(deps, user.id, body), { auth: true, body: TagModel.create })
    .put("/:id", async ({ params, body, user }) => await updateTag(deps, user, params.id, body), {
      auth: true,
      params: idParam,
      body: TagModel.update,
    })
    .delete(
      "/:id",
      async ({ params, user }) => {
        await deleteTag(deps, user, params.id);
        return { message: "Tag deleted" };
      },
      { auth: true, params: idParam },
    );
}
