import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { forbidden } from "../../errors";
import { idParam } from "../../http/fields";
import { authContext } from "../auth/plugin";
import type { Tokens } from "../auth/tokens";
import { canSeeTicket } from "./access";
import { callUrl } from "./call";
import { deleteDraft, listDrafts, readDraft, saveDraft } from "./drafts";
import { listContactTickets } from "./contact-tickets";
import { listTicketEvents } from "./history-list";
import { listTickets } from "./list";
import { TicketModel } from "./model";
import { loadTicketDto } from "./serialize";
import { findTicketByPhone } from "./find-by-phone";
import { snoozeTicket, unsnoozeTicket } from "./snooze";
import { applyTicketChanges, createTicket, deleteTicket, syncTicketTags } from "./service";

/** /tickets (with each user's drafts), /contacts/:id/tickets, /ticketfind and /tags/sync. */
export function ticketRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia()
    .use(authContext(deps, tokens))
    .get(
      "/tickets",
      async ({ user, query }) =>
        await listTickets(
          deps.db,
          user,
          {
            status: query.status,
            searchParam: query.searchParam,
            pageNumber: query.pageNumber,
            before:
              query.beforeUpdatedAt !== undefined && query.beforeId !== undefined
                ? { updatedAt: query.beforeUpdatedAt, id: query.beforeId }
                : undefined,
            date: query.date || undefined,
            updatedAt: query.updatedAt || undefined,
            showAll: query.showAll,
            withUnreadMessages: query.withUnreadMessages,
            snoozed: query.snoozed,
            slaBreached: query.slaBreached,
            queueIds: query.queueIds,
            tags: query.tags,
          },
          deps.config.timeZone,
        ),
      {
        auth: true,
        // An empty `queueIds=` or `tags=` means no filter, as it always did (an empty JSON array `[]` filters).
        transform: ({ query }) => {
          const raw = query as Record<string, unknown>;
          for (const key of ["queueIds", "tags"]) if (raw[key] === "") delete raw[key];
        },
        query: TicketModel.list,
      },
    )
    .get("/tickets/drafts", async ({ user }) => await listDrafts(deps, user), { auth: true })
    .get(
      "/tickets/:id",
      async ({ user, params }) => {
        const ticket = await loadTicketDto(deps.db, params.id);
        if (!canSeeTicket(user, ticket)) throw forbidden();
        return ticket;
      },
      { auth: true, params: idParam },
    )
    .get(
      "/tickets/:id/events",
      async ({ user, params, query }) => await listTicketEvents(deps, user, params.id, query),
      { auth: true, params: idParam, query: TicketModel.events },
    )
    .get("/tickets/:id/draft", async ({ user, params }) => await readDraft(deps, user, params.id), {
      auth: true,
      params: idParam,
    })
    .put("/tickets/:id/draft", async ({ user, params, body }) => await saveDraft(deps, user, params.id, body.body), {
      auth: true,
      params: idParam,
      body: TicketModel.draft,
    })
    .delete("/tickets/:id/draft", async ({ user, params }) => await deleteDraft(deps, user, params.id), {
      auth: true,
      params: idParam,
    })
    .get(
      "/contacts/:id/tickets",
      async ({ user, params, query }) => await listContactTickets(deps, user, params.id, query),
      { auth: true, params: idParam, query: TicketModel.contactTickets },
    )
    .get("/tickets/:id/call", async ({ user, params }) => await callUrl(deps, user, params.id), {
      auth: true,
      params: idParam,
    })
    .put("/tickets/:id", ({ user, params, body }) => applyTicketChanges(deps, params.id, body, { actor: user }), {
      auth: true,
      params: idParam,
      body: TicketModel.update,
    })
    .post(
      "/tickets/:id/snooze",
      async ({ user, params, body }) => await snoozeTicket(deps, user, params.id, body.until),
      { auth: true, params: idParam, body: TicketModel.snooze },
    )
    .delete("/tickets/:id/snooze", async ({ user, params }) => await unsnoozeTicket(deps, user, params.id), {
      auth: true,
      params: idParam,
    })
    .post("/tickets", async ({ user, body }) => await createTicket(deps, user, body), {
      auth: true,
      body: TicketModel.create,
    })
    .delete(
      "/tickets/:id",
      async ({ params }) => {
        await deleteTicket(deps, params.id);
        return { message: "ticket deleted" };
      },
      { auth: "ticket-options:deleteTicket", params: idParam },
    )
    .get("/ticketfind/:phone", async ({ user, params }) => await findTicketByPhone(deps, user, params.phone), {
      auth: true,
      params: TicketModel.phoneParam,
    })
    .post(
      "/tags/sync",
      async ({ user, body }) =>
        await syncTicketTags(
          deps,
          user,
          body.ticketId,
          body.tags.map((tag) => tag.id),
        ),
      {
        auth: true,
        body: TicketModel.syncTags,
      },
    );
}
