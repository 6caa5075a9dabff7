import { eq } from "drizzle-orm";
import type { AppDeps } from "../../deps";
import { tickets } from "../../db/schema";
import { sendTicketText } from "../messages/send";
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
      if (isBot !== undefined) deps.db.update(tickets).set({ isBot }).where(eq(tickets.id, ticket.id)).run();
      return deps.db.select().from(tickets).where(eq(tickets.id, ticket.id)).get()!;
    },
  };
}
