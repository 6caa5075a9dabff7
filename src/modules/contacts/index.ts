import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam, str } from "../../http/fields";
import { RULES } from "../../shared/validation";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { listQuery } from "../../http/list-query";
import {
  cleanNumber,
  createContact,
  deleteContact,
  getOrCreateContact,
  importPhonebook,
  listAllContacts,
  listContacts,
  showContact,
  updateContact,
} from "./service";

const extraInfo = t.Array(
  t.Object({
    id: t.Optional(t.Integer({ minimum: 1 })),
    name: t.String({ minLength: 1, maxLength: 100 }),
    value: t.Optional(t.String({ maxLength: 2000 })),
  }),
  { maxItems: 100 },
);
const numberRule = { ...RULES.contactNumber, digits: true };
const email = t.Optional(t.String({ maxLength: 320 }));

/** Formatting is stripped from the number before the length and digits checks. */
const numberChecked = <T extends { number?: string }>(body: T): T =>
  body.number === undefined ? body : { ...body, number: cleanNumber(body.number) };

/**
 * /contacts and /contact: everyone reads and writes, but a number changes only for callers who see every active
 * ticket of the contact; deleting needs `contacts-page:deleteContact`.
 */
export function contactsRoutes(deps: AppDeps, tokens: Tokens) {
  const contactBody = t.Object({
    name: str(RULES.contactName),
    number: str(numberRule),
    email,
    extraInfo: t.Optional(extraInfo),
  });
  return new Elysia()
    .use(authContext(deps, tokens))
    .onTransform(({ body, path }) => {
      if (
        /\/contacts?(\/\d+)?$/.test(path) &&
        body &&
        typeof body === "object" &&
        typeof (body as { number?: unknown }).number === "string"
      ) {
        Object.assign(body, numberChecked(body as { number: string }));
      }
    })
    .get("/contacts", ({ query }) => listContacts(deps.db, query), { auth: true, query: listQuery })
    .get("/contacts/list", ({ query }) => listAllContacts(deps.db, query.name), {
      auth: true,
      query: t.Object({ name: t.Optional(t.String({ maxLength: 200 })) }),
    })
    .get("/contacts/:id", ({ params }) => showContact(deps.db, params.id), { auth: true, params: idParam })
    .post("/contacts/import", ({ user }) => importPhonebook(deps, user), { auth: true })
    .post("/contacts", ({ body }) => createContact(deps, body), { auth: true, body: contactBody })
    .put("/contacts/:id", ({ user, params, body }) => updateContact(deps, user, params.id, body), {
      auth: true,
      params: idParam,
      body: t.Partial(contactBody),
    })
    .delete(
      "/contacts/:id",
      ({ params }) => {
        deleteContact(deps, params.id);
        return { message: "Contact deleted" };
      },
      { auth: "contacts-page:deleteContact", params: idParam },
    )
    .post("/contact", ({ body }) => getOrCreateContact(deps, body), {
      auth: true,
      body: t.Object({ name: str(RULES.contactName), number: str(numberRule), email }),
    });
}
