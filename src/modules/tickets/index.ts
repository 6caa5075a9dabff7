import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps";
import { FieldError, forbidden } from "../../errors";
import { DEFAULT_MESSAGES } from "../../shared/validation";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { canSeeTicket } from "./access";
import { callUrl } from "./call";
import { listTickets } from "./list";
import { loadTicketDto } from "./serialize";
import { applyTicketChanges, createTicket, deleteTicket, findTicketByPhone, syncTicketTags } from "./service";

const id = t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const status = t.Union([t.Literal("open"), t.Literal("pending"), t.Literal("closed")]);
const flag = t.Optional(t.Union([t.Literal("true"), t.Literal("false")]));

/** A JSON array of ids in a query string (`queueIds`, `tags`); anything else is a 400 on that field. */
function idList(field: string, value: string | undefined): number[] | undefined {
  if (value === undefined || value === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new FieldError(field, DEFAULT_MESSAGES.pattern);
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length > 500 ||
    !parsed.every((v) => Number.isSafeInteger(Number(v)) && Number(v) > 0 && String(v).trim() !== "")
  ) {
    throw new FieldError(field, DEFAULT_MESSAGES.pattern);
  }
  return parsed.map(Number);
}

/** /tickets, /ticketfind and /tags/sync. */
export function ticketRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia()
    .use(authContext(deps, tokens))
    .get(
      "/tickets",
      ({ user, query }) =>
        listTickets(
          deps.db,
          user,
          {
            status: query.status,
            searchParam: query.searchParam,
            pageNumber: query.pageNumber,
            date: query.date || undefined,
            updatedAt: query.updatedAt || undefined,
            showAll: query.showAll === "true",
            withUnreadMessages: query.withUnreadMessages === "true",
            queueIds: idList("queueIds", query.queueIds),
            tags: idList("tags", query.tags),
          },
          deps.config.timeZone,
        ),
      {
        auth: true,
        query: t.Object({
          status: t.Optional(status),
          searchParam: t.Optional(t.String({ maxLength: 200 })),
          pageNumber: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000 })),
          date: t.Optional(t.String({ maxLength: 40 })),
          updatedAt: t.Optional(t.String({ maxLength: 40 })),
          showAll: flag,
          withUnreadMessages: flag,
          queueIds: t.Optional(t.String({ maxLength: 5000 })),
          tags: t.Optional(t.String({ maxLength: 5000 })),
        }),
      },
    )
    .get(
      "/tickets/:id",
      ({ user, params }) => {
        const ticket = loadTicketDto(deps.db, params.id);
        if (!canSeeTicket(user, ticket)) throw forbidden();
        return ticket;
      },
      { auth: true, params: idParam },
    )
    .get("/tickets/:id/call", ({ user, params }) => callUrl(deps, user, params.id), { auth: true, params: idParam })
    .put("/tickets/:id", ({ user, params, body }) => applyTicketChanges(deps, params.id, body, { actor: user }), {
      auth: true,
      params: idParam,
      body: t.Object({
        status: t.Optional(status),
        userId: t.Optional(t.Nullable(id)),
        queueId: t.Optional(t.Nullable(id)),
        whatsappId: t.Optional(id),
      }),
    })
    .post("/tickets", ({ user, body }) => createTicket(deps, user, body), {
      auth: true,
      body: t.Object({
        contactId: id,
        userId: t.Optional(t.Nullable(id)),
        status: t.Optional(status),
        queueId: t.Optional(t.Nullable(id)),
      }),
    })
    .delete(
      "/tickets/:id",
      ({ params }) => {
        deleteTicket(deps, params.id);
        return { message: "ticket deleted" };
      },
      { auth: "ticket-options:deleteTicket", params: idParam },
    )
    .get("/ticketfind/:phone", ({ user, params }) => findTicketByPhone(deps, user, params.phone), {
      auth: true,
      params: t.Object({ phone: t.String({ maxLength: 50 }) }),
    })
    .post(
      "/tags/sync",
      ({ user, body }) =>
        syncTicketTags(
          deps,
          user,
          body.ticketId,
          body.tags.map((tag) => tag.id),
        ),
      {
        auth: true,
        body: t.Object({ ticketId: id, tags: t.Array(t.Object({ id }), { maxItems: 200 }) }),
      },
    );
}
