import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import type { MessagePageQuery } from "../../shared/contracts/messages";

export namespace MessageModel {
  export const listParams = t.Object({ ticketId: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
  export const listQuery = schemaOf<MessagePageQuery>()(
    t.Object({ pageNumber: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000 })) }),
  );
  export const searchQuery = t.Object({ q: t.String({ maxLength: 200 }) });
}
