import type { TFunction } from "i18next";
import type { BootUser } from "../../../islands/lib/boot";
import type { QueueOption } from "../../shared/contracts";
import { can } from "../../shared/permissions";
import type { IslandComponent } from "../island";

/** /tickets and /tickets/:id: the list on the left, the chat (or a welcome note) on the right; one of them below 600 px. */
export function TicketsPage({
  Island,
  t,
  user,
  ticketId,
  queues,
}: {
  Island: IslandComponent;
  t: TFunction;
  user: BootUser;
  ticketId: number | null;
  queues: QueueOption[];
}) {
  return (
    <div className={`tickets-page ${ticketId ? "has-chat" : "no-chat"}`}>
      <Island
        name="TicketsManager"
        className="tickets-list-pane"
        props={{
          userId: user.id,
          canShowAll: can(user.profile, "tickets-manager:showall"),
          queues,
          selectedId: ticketId,
        }}
      />
      {ticketId ? (
        <Island name="Chat" className="chat-pane" props={{ ticketId, userId: user.id }} />
      ) : (
        <div className="chat-pane welcome">
          <p>{t("tickets.welcome")}</p>
        </div>
      )}
    </div>
  );
}
