import type { BootUser } from "../../../islands/lib/boot";
import { landingSub, parseListView } from "../../../islands/tickets/list-view";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import { onboardingFor } from "../../modules/dashboard/onboarding";
import { listMessages } from "../../modules/messages/service";
import { OWN_PAGES, presentMessages } from "../../modules/messages/present";
import { listTickets } from "../../modules/tickets/list";
import { loadAuthUser } from "../../modules/users/service";
import type { AuthUser } from "../../shared/auth-user";
import type { QueueOption, TicketStatus } from "../../shared/contracts";
import { toWire } from "../../shared/contracts/wire";
import { can } from "../../shared/permissions";
import type { IslandComponent } from "../island";

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
  ticketId,
  queues: offered,
  query,
}: {
  deps: AppDeps;
  Island: IslandComponent;
  user: BootUser;
  ticketId: number | null;
  /** The queues offered by the filter, read while the user is. */
  queues: Promise<QueueOption[]>;
  query: URLSearchParams;
}) {
  const [auth, queues] = await Promise.all([loadAuthUser(deps.db, user.id), offered]);
  const canShowAll = can(user.profile, "tickets-manager:showall");
  // The chat first: opening it marks the ticket read, so the list below already shows it without a badge.
  const chat = auth && ticketId ? await firstMessages(deps, auth, ticketId) : null;
  const list = async (status: TicketStatus) =>
    toWire(
      await listTickets(
        deps.db,
        auth!,
        // What the list island asks for first: show-all as allowed, every offered queue.
        { status, showAll: canShowAll, queueIds: queues.length ? queues.map((q) => q.id) : undefined, pageNumber: 1 },
        deps.config.timeZone,
      ),
    );
  // The rest is read at once: on PostgreSQL each query is a round trip.
  const [onboarding, initial] = await Promise.all([
    auth && can(auth.profile, "settings:manage") ? onboardingFor(deps.db, deps.config.sandbox) : null,
    auth ? Promise.all([list("open"), list("pending")]).then(([open, pending]) => ({ open, pending })) : null,
  ]);
  const landing = landingSub({ open: initial?.open.count ?? 0, pending: initial?.pending.count ?? 0 });
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
