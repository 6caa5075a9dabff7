import { t } from "elysia";

/** Query of a paged, searchable list: `searchParam` and 1-based `pageNumber`. */
export const listQuery = t.Object({
  searchParam: t.Optional(t.String({ maxLength: 200 })),
  pageNumber: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000 })),
});
