import { t } from "elysia";
import type { ListQuery } from "../shared/contracts/list-query";
import { schemaOf } from "./contract-schema";

/** Query of a paged, searchable list: `searchParam` and 1-based `pageNumber`. */
export const listQuery = schemaOf<ListQuery>()(
  t.Object({
    searchParam: t.Optional(t.String({ maxLength: 200 })),
    pageNumber: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000 })),
  }),
);
