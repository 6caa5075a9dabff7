import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { QueueModel } from "./model";
import {
  createChatbot,
  createQueue,
  deleteChatbot,
  deleteQueue,
  listChatbots,
  listQueues,
  showChatbot,
  showQueue,
  updateChatbot,
  updateQueue,
} from "./service";

/** /queue and /chatbot: everyone reads, `queues:manage` writes. */
export function queuesRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia()
    .use(authContext(deps, tokens))
    .get("/queue", async () => await listQueues(deps.db), { auth: true })
    .get("/queue/:id", async ({ params }) => await showQueue(deps.db, params.id), { auth: true, params: idParam })
    .post("/queue", async ({ body }) => await createQueue(deps, body), {
      auth: "queues:manage",
      body: QueueModel.create,
    })
    .put("/queue/:id", async ({ params, body }) => await updateQueue(deps, params.id, body), {
      auth: "queues:manage",
      params: idParam,
      body: QueueModel.update,
    })
    .delete(
      "/queue/:id",
      async ({ user, params, query }) => {
        await deleteQueue(deps, params.id, query.moveTo, user.id);
        return { message: "Queue deleted" };
      },
      {
        auth: "queues:manage",
        params: idParam,
        query: QueueModel.deleteQuery,
      },
    )
    .get("/chatbot", async () => await listChatbots(deps.db), { auth: true })
    .get("/chatbot/:id", async ({ params }) => await showChatbot(deps.db, params.id), { auth: true, params: idParam })
    .post("/chatbot", async ({ body }) => await createChatbot(deps, body), {
      auth: "queues:manage",
      body: QueueModel.createChatbot,
    })
    .put("/chatbot/:id", async ({ params, body }) => await updateChatbot(deps, params.id, body), {
      auth: "queues:manage",
      params: idParam,
      body: QueueModel.updateChatbot,
    })
    .delete(
      "/chatbot/:id",
      async ({ params }) => {
        await deleteChatbot(deps, params.id);
        return { message: "Chatbot deleted" };
      },
      { auth: "queues:manage", params: idParam },
    );
}
