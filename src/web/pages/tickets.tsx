import type { BootUser } from "../../../islands/lib/boot";
import { landingSub, parseListView } from "../../../islands/tickets/list-view";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import { onboardingFor } from "../../modules/dashboard/onboarding";
import { listMessages } from "../../modules/messages/service";
import { OWN_PAGES, presentMessages } from "../../modules/messages/present";
import { listQueues } from "../../modules/queues/service";
import { type QueueSummary, queueSummaries } from "../../modules/queues/lookup";
import { listsOfTickets } from "../../modules/tickets/list";
import { authUserOf } from "../../modules/users/service";
import type { UserRow } from "../../db/tables";
import type { AuthUser } from "../../shared/auth-user";
import type { TicketStatus } from "../../shared/contracts";
import { toWire } from "../../shared/contracts/wire";
import { can, isAdmin } from "../../shared/permissions";
import type { IslandComponent } from "../island";
import type { OnboardingDto } from "../../shared/contracts/onboarding";

/** The signed-in user's row and queue ids, as the page's session read them. */
export interface SignedIn {
  row: UserRow;
  queueIds: number[];
}

/**
 * /tickets and /tickets/:id: the list on the left, the chat (or a welcome note, with the first-run checklist for
 * admins) on the right; one of them below
 * 600 px. Both islands are always there: opening another ticket switches the chat in place. `query` is the
 * address's query, which names the list's tab, sub-tab and search.
 */
export async function ticketsPage({
  deps,
  Island,
  user,
  account,
  ticketId,
  query,
  firstRun,
}: {
  deps: AppDeps;
  Island: IslandComponent;
  user: BootUser;
  account: SignedIn;
  ticketId: number | null;
  query: URLSearchParams;
  /** The first-run checklist, when already asked for with the app bar's connection warning. */
  firstRun?: Promise<{ onboarding: OnboardingDto }>;
}) {
  const auth = authUserOf(account.row, account.queueIds);
  const canShowAll = can(user.profile, "tickets-manager:showall");
  // The chat first: opening it marks the ticket read, so the list below already shows it without a badge.
  const chat = ticketId ? await firstMessages(deps, auth, ticketId) : null;
  // What the list island asks for first: show-all as allowed, every offered queue. An admin is offered every
  // queue, and a ticket's queue is one of them or none: the same tickets as no queue filter, which the lists then
  // read without testing each entry's queue (the counts walk up to 1,000 entries). An agent is offered their own.
  const list = (status: TicketStatus) => ({
    status,
    showAll: canShowAll,
    queueIds: account.queueIds.length && !isAdmin(auth.profile) ? account.queueIds : undefined,
    pageNumber: 1,
  });
  // The rest is read at once: on PostgreSQL each query is a round trip, and the lists need the offered queues'
  // names only for their tickets, once their pages are read.
  const offered = offeredQueues(deps, account);
  const [queues, onboarding, initial] = await Promise.all([
    offered.then((summaries) => summaries.map(({ id, name, color }) => ({ id, name, color }))),
    can(auth.profile, "settings:manage")
      ? (firstRun?.then((state) => state.onboarding) ?? onboardingFor(deps.db, deps.config.sandbox))
      : null,
    listsOfTickets(
      deps.db,
      auth,
      [list("open"), list("pending")],
      deps.config.timeZone,
      offered.then((known) => ({ queues: known })),
    ).then(([open, pending]) => ({
      open: toWire(open!),
      pending: toWire(pending!),
    })),
  ]);
  const landing = landingSub({ open: initial.open.count, pending: initial.pending.count });
  return (
    <div className={`tickets-page ${ticketId ? "has-chat" : "no-chat"}`}>
      <Island
        name="TicketsManager"
        className="tickets-list-pane"
        props={{
          userId: user.id,
          canShowAll,
          queues,
          selectedId: ticketId,
          view: parseListView(query, landing),
          landing,
          initial,
        }}
      />
      <Island
        name="Chat"
        className={ticketId ? "chat-pane" : "chat-pane welcome"}
        props={{ ticketId, userId: user.id, initial: chat, onboarding }}
      />
    </div>
  );
}

/** The queues the filter offers: every queue for admins, the agent's own otherwise. */
async function offeredQueues(deps: AppDeps, { row, queueIds }: SignedIn): Promise<QueueSummary[]> {
  return isAdmin(row.profile) ? await listQueues(deps.db) : await queueSummaries(deps.db, queueIds);
}

/** The ticket and its latest messages, or null when the user may not see it (the chat then shows the API's error). */
async function firstMessages(deps: AppDeps, user: AuthUser, ticketId: number) {
  try {
    const page = await listMessages(deps, user, ticketId, 1);
    return toWire({ ...page, messages: presentMessages(deps, page.messages, OWN_PAGES) });
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}
