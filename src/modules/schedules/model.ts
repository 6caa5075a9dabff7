import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import { str } from "../../http/fields";
import { listQuery } from "../../http/list-query";
import { templateMessage } from "../../http/template-field";
import type { NewSchedule, ScheduleChanges } from "../../shared/contracts/schedules";
import { FORM_RULES } from "../../shared/validation";

const id = t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const fields = t.Object({
  body: str(FORM_RULES.schedule.body),
  contactId: t.Integer({ minimum: 1 }),
  sendAt: t.String({ minLength: 1, maxLength: 40, rule: FORM_RULES.schedule.sendAt }),
  template: t.Union([templateMessage, t.Null()]),
});

export namespace ScheduleModel {
  export const list = t.Object({
    ...listQuery.properties,
    contactId: t.Optional(id),
    userId: t.Optional(id),
  });
  export type List = typeof list.static;

  export const create = schemaOf<NewSchedule>()(
    t.Object({
      ...fields.properties,
      template: t.Optional(fields.properties.template),
      userId: t.Optional(t.Union([t.Integer(), t.Null()])),
      ticketId: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
    }),
  );
  export type Create = NewSchedule;

  export const update = schemaOf<ScheduleChanges>()(t.Partial(fields));
  export type Update = ScheduleChanges;
}
