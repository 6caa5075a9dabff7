import { t } from "elysia";

export namespace MessageModel {
  export const listParams = t.Object({ ticketId: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
  export const listQuery = t.Object({ pageNumber: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000 })) });
  export const searchQuery = t.Object({ q: t.String({ maxLength: 200 }) });
}
