import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import { listQuery } from "../../http/list-query";
import { templateMessage } from "../../http/template-field";
import type { BulkRecipient } from "../../shared/contracts/bulk";

const id = t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const item = t.Object({
  message: t.String({ minLength: 1, maxLength: 30000, pattern: "\\S" }),
  phone: t.String({ minLength: 1, maxLength: 50 }),
  whatsappId: t.Integer({ minimum: 1 }),
  template: t.Optional(templateMessage),
});

export namespace BulkModel {
  export const list = listQuery;
  export type List = typeof list.static;

  export const store = schemaOf<BulkRecipient[]>()(t.Array(item, { minItems: 1, maxItems: 10_000 }));
  export type Item = BulkRecipient;

  export const optOutParams = t.Object({ id });
  export const optOutDeleteParams = t.Object({ id, whatsappId: id });
}
