import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import { idList } from "../../http/fields";
import type { ReportQuery } from "../../shared/contracts/reports";

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
