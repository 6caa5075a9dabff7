import { t } from "elysia";
import { schemaOf } from "../../http/contract-schema";
import { listQuery } from "../../http/list-query";
import { str } from "../../http/fields";
import type { ContactByNumber, ContactChanges, ContactNameQuery, NewContact } from "../../shared/contracts/contacts";
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

  export const create = schemaOf<NewContact>()(
    t.Object({
      name: str(FORM_RULES.contact.name),
      number,
      email,
      extraInfo: t.Optional(extraInfo),
    }),
  );
  export type Create = NewContact;

  export const update = schemaOf<ContactChanges>()(t.Partial(create));
  export type Update = ContactChanges;

  /** POST /contact: the contact of a number, created when missing. */
  export const getOrCreate = schemaOf<ContactByNumber>()(
    t.Object({ name: str(FORM_RULES.contact.name), number, email }),
  );
  export type GetOrCreate = ContactByNumber;

  export const listAllQuery = schemaOf<ContactNameQuery>()(
    t.Object({ name: t.Optional(t.String({ maxLength: 200 })) }),
  );
}
