import type { AppDeps } from "../../deps";
import { sendTicketText } from "../messages/send";
import { findTicket, setBotMode } from "../tickets/records";
import { applyTicketChanges } from "../tickets/service";
import type { BotActions } from "./bot";

/** The bot's actions through the messages and tickets services (auto texts; changes with no acting user). */
export function botActions(deps: AppDeps): BotActions {
  return {
    async send(ticket, body) {
      await sendTicketText(deps, ticket, body, { auto: true });
    },
    async change(ticket, { isBot, ...changes }) {
      if (Object.keys(changes).length) await applyTicketChanges(deps, ticket.id, changes, { actor: null });
      if (isBot !== undefined) await setBotMode(deps.db, ticket.id, isBot);
      return (await findTicket(deps.db, ticket.id))!;
    },
  };
}
