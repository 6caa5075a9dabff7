import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import { templateMessage } from "../../http/template-field";
import type { ForwardRequest, MessagePageQuery, ReactRequest } from "../../shared/contracts/messages";

export namespace MessageModel {
  export const listParams = t.Object({ ticketId: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
  export const listQuery = schemaOf<MessagePageQuery>()(
    t.Object({ pageNumber: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000 })) }),
  );
  export const forward = schemaOf<ForwardRequest>()(
    t.Object({
      contactIds: t.Array(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), { minItems: 1, maxItems: 20 }),
    }),
  );
  export const react = schemaOf<ReactRequest>()(t.Object({ emoji: t.String({ maxLength: 32 }) }));
  export const searchQuery = t.Object({ q: t.String({ maxLength: 200 }) });
  /** POST /messages/:ticketId/template: an approved template of the ticket's connection, its placeholders filled. */
  export const template = templateMessage;
}
