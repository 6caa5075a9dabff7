import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import type { ReportQuery } from "../../shared/contracts/reports";

/** Ids in a query string as a JSON array (`[1,2]`); the field's name travels with the error answer. */
const idList = (field: string) =>
  t.Optional(
    t.ArrayString(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, field }), { maxItems: 500, field }),
  );

export namespace ReportModel {
  export const summary = schemaOf<ReportQuery>()(
    t.Object({
      from: t.Optional(t.String({ maxLength: 40 })),
      to: t.Optional(t.String({ maxLength: 40 })),
      queueIds: idList("queueIds"),
      userIds: idList("userIds"),
    }),
  );
  export type Summary = ReportQuery;
}
