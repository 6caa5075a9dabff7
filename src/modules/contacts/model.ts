import { t } from "elysia";
import { listQuery } from "../../http/list-query";
import { str } from "../../http/fields";
import { FORM_RULES } from "../../shared/validation";

const extraInfo = t.Array(
  t.Object({
    id: t.Optional(t.Integer({ minimum: 1 })),
    name: t.String({ minLength: 1, maxLength: 100 }),
    value: t.Optional(t.String({ maxLength: 2000 })),
  }),
  { maxItems: 100 },
);
/** Checked after `cleanNumber` removed the formatting (see the routes' transform). */
const number = str(FORM_RULES.contact.number);
/** Checked by the service, so an empty email stays allowed; the rule rides along for the error answer. */
const email = t.Optional(t.String({ maxLength: 320, rule: FORM_RULES.contact.email }));

export namespace ContactModel {
  export const list = listQuery;
  export type List = typeof list.static;

  export const create = t.Object({
    name: str(FORM_RULES.contact.name),
    number,
    email,
    extraInfo: t.Optional(extraInfo),
  });
  export type Create = typeof create.static;

  export const update = t.Partial(create);
  export type Update = typeof update.static;

  /** POST /contact: the contact of a number, created when missing. */
  export const getOrCreate = t.Object({ name: str(FORM_RULES.contact.name), number, email });
  export type GetOrCreate = typeof getOrCreate.static;

  export const listAllQuery = t.Object({ name: t.Optional(t.String({ maxLength: 200 })) });
}
