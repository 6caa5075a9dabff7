import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam, str } from "../../http/fields";
import { RULES } from "../../shared/validation";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
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

const optionFields = {
  id: t.Optional(t.Integer({ minimum: 1 })),
  name: str(RULES.chatbotName),
  greetingMessage: t.Optional(t.String({ maxLength: 30000 })),
  isAgent: t.Optional(t.Boolean()),
  userId: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
};
const option = t.Recursive((self) =>
  t.Object({ ...optionFields, options: t.Optional(t.Array(self, { maxItems: 50 })) }),
);
const options = t.Array(option, { maxItems: 50 });
const queueBody = t.Object({
  name: str(RULES.queueName),
  color: str(RULES.queueColor),
  greetingMessage: t.Optional(t.String({ maxLength: 30000 })),
  chatbots: t.Optional(options),
});

/** /queue and /chatbot: everyone reads, `queues:manage` writes. */
export function queuesRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia()
    .use(authContext(deps, tokens))
    .get("/queue", () => listQueues(deps.db), { auth: true })
    .get("/queue/:id", ({ params }) => showQueue(deps.db, params.id), { auth: true, params: idParam })
    .post("/queue", ({ body }) => createQueue(deps, body), { auth: "queues:manage", body: queueBody })
    .put("/queue/:id", ({ params, body }) => updateQueue(deps, params.id, body), {
      auth: "queues:manage",
      params: idParam,
      body: t.Partial(queueBody),
    })
    .delete(
      "/queue/:id",
      ({ params, query }) => {
        deleteQueue(deps, params.id, query.moveTo);
        return { message: "Queue deleted" };
      },
      {
        auth: "queues:manage",
        params: idParam,
        query: t.Object({ moveTo: t.Optional(t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })) }),
      },
    )
    .get("/chatbot", () => listChatbots(deps.db), { auth: true })
    .get("/chatbot/:id", ({ params }) => showChatbot(deps.db, params.id), { auth: true, params: idParam })
    .post("/chatbot", ({ body }) => createChatbot(deps, body), {
      auth: "queues:manage",
      body: t.Object({
        ...optionFields,
        parentId: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
        options: t.Optional(options),
      }),
    })
    .put("/chatbot/:id", ({ params, body }) => updateChatbot(deps, params.id, body), {
      auth: "queues:manage",
      params: idParam,
      body: t.Partial(t.Object({ ...optionFields, options })),
    })
    .delete(
      "/chatbot/:id",
      ({ params }) => {
        deleteChatbot(deps, params.id);
        return { message: "Chatbot deleted" };
      },
      { auth: "queues:manage", params: idParam },
    );
}
