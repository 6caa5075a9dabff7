import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import { str } from "../../http/fields";
import type { ChatbotOptionInput, NewQueue, QueueChanges, QueueDeleteQuery } from "../../shared/contracts/queues";
import { FORM_RULES, RULES } from "../../shared/validation";

const optionFields = {
  id: t.Optional(t.Integer({ minimum: 1 })),
  name: str(RULES.chatbotName),
  greetingMessage: t.Optional(t.String({ maxLength: 30000 })),
  isAgent: t.Optional(t.Boolean()),
  userId: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
};
const option = schemaOf<ChatbotOptionInput>()(
  t.Recursive((self) => t.Object({ ...optionFields, options: t.Optional(t.Array(self, { maxItems: 50 })) })),
);
const options = t.Array(option, { maxItems: 50 });
/** An SLA target: whole minutes up to a year, 0 = none. */
const slaMinutes = t.Integer({ minimum: 0, maximum: 525_600 });

export namespace QueueModel {
  /** A chatbot option and its nested options. */
  export type Option = ChatbotOptionInput;

  export const create = schemaOf<NewQueue>()(
    t.Object({
      name: str(FORM_RULES.queue.name),
      color: str(FORM_RULES.queue.color),
      greetingMessage: t.Optional(t.String({ maxLength: 30000 })),
      chatbots: t.Optional(options),
      firstResponseMinutes: t.Optional(slaMinutes),
      resolutionMinutes: t.Optional(slaMinutes),
    }),
  );
  export type Create = NewQueue;

  export const update = schemaOf<QueueChanges>()(t.Partial(create));
  export type Update = QueueChanges;

  export const deleteQuery = schemaOf<QueueDeleteQuery>()(
    t.Object({
      moveTo: t.Optional(t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
    }),
  );

  export const createChatbot = t.Object({
    ...optionFields,
    parentId: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
    options: t.Optional(options),
  });
  export type CreateChatbot = typeof createChatbot.static;

  export const updateChatbot = t.Partial(t.Object({ ...optionFields, options }));
  export type UpdateChatbot = typeof updateChatbot.static;
}
