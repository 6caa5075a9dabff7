import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { ContactModel } from "./model";
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

/** Formatting is stripped from the number before the length and digits checks. */
function numberCleaned({ body }: { body: unknown }) {
  const input = body as { number?: unknown } | null;
  if (input && typeof input === "object" && typeof input.number === "string") input.number = cleanNumber(input.number);
}

/**
 * /contacts and /contact: everyone reads and writes, but a number changes only for callers who see every active
 * ticket of the contact; deleting needs `contacts-page:deleteContact`.
 */
export function contactsRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia()
    .use(authContext(deps, tokens))
    .get("/contacts", async ({ query }) => await listContacts(deps.db, query), { auth: true, query: ContactModel.list })
    .get("/contacts/list", async ({ query }) => await listAllContacts(deps.db, query.name), {
      auth: true,
      query: ContactModel.listAllQuery,
    })
    .get("/contacts/:id", async ({ params }) => await showContact(deps.db, params.id), { auth: true, params: idParam })
    .post("/contacts/import", async ({ user }) => await importPhonebook(deps, user), { auth: true })
    .post("/contacts", ({ body }) => createContact(deps, body), {
      auth: true,
      transform: numberCleaned,
      body: ContactModel.create,
    })
    .put("/contacts/:id", ({ user, params, body }) => updateContact(deps, user, params.id, body), {
      auth: true,
      params: idParam,
      transform: numberCleaned,
      body: ContactModel.update,
    })
    .delete(
      "/contacts/:id",
      async ({ params }) => {
        await deleteContact(deps, params.id);
        return { message: "Contact deleted" };
      },
      { auth: "contacts-page:deleteContact", params: idParam },
    )
    .post("/contact", async ({ body }) => await getOrCreateContact(deps, body), {
      auth: true,
      transform: numberCleaned,
      body: ContactModel.getOrCreate,
    });
}
