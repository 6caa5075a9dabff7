import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { QuickAnswerModel } from "./model";
import { createQuickAnswer, deleteQuickAnswer, listQuickAnswers, showQuickAnswer, updateQuickAnswer } from "./service";

/** /quickAnswers: shared by every agent; anyone creates, `quick-answers:edit` edits and deletes (they have no owner). */
export function quickAnswersRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia({ prefix: "/quickAnswers" })
    .use(authContext(deps, tokens))
    .get("/", async ({ query }) => await listQuickAnswers(deps.db, query), { auth: true, query: QuickAnswerModel.list })
    .get("/:id", async ({ params }) => await showQuickAnswer(deps.db, params.id), { auth: true, params: idParam })
    .post("/", async ({ body }) => await createQuickAnswer(deps, body), { auth: true, body: QuickAnswerModel.create })
    .put("/:id", async ({ params, body }) => await updateQuickAnswer(deps, params.id, body), {
      auth: "quick-answers:edit",
      params: idParam,
      body: QuickAnswerModel.update,
    })
    .delete(
      "/:id",
      async ({ params }) => {
        await deleteQuickAnswer(deps, params.id);
        return { message: "Quick Answer deleted" };
      },
      { auth: "quick-answers:edit", params: idParam },
    );
}
