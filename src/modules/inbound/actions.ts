import type { TicketRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { sendTicketText } from "../messages/send";
import { findTicket, setBotMode } from "../tickets/records";
import { applyTicketChanges, TicketMovedOn } from "../tickets/service";
import { assignWaitingTickets, isWaiting } from "../tickets/assignment";
import { stopChatbot } from "../tickets/dialogs";
import type { BotActions } from "./bot";

/** The bot's actions through the messages and tickets services (auto texts; changes with no acting user). */
export function botActions(deps: AppDeps): BotActions {
  return {
    async send(ticket, body, choices) {
      await sendTicketText(deps, ticket, body, { auto: true, ...(choices ? { menu: choices } : {}) });
    },
    async change(ticket, { isBot, ...changes }) {
      if (Object.keys(changes).length) {
        // Only while nobody took the ticket from the bot since it read it.
        const asSeen = (current: TicketRow) =>
          current.status === ticket.status && current.userId === ticket.userId && current.queueId === ticket.queueId;
        try {
          const opts = { actor: null, proceedIf: asSeen, cause: "chatbot" as const, isBot };
          // A queue chosen leaves the ticket waiting there: the change gives it to the queue's rule.
          await applyTicketChanges(deps, ticket.id, changes, opts);
        } catch (error) {
          if (error instanceof TicketMovedOn) return undefined;
          throw error;
        }
        return (await findTicket(deps.db, ticket.id))!;
      }
      if (isBot !== undefined) await setBotMode(deps.db, ticket.id, isBot);
      return await handedToQueue(deps, ticket.id);
    },
    async stop(ticket, invalidAnswers) {
      await stopChatbot(deps, ticket.id, invalidAnswers);
      await handedToQueue(deps, ticket.id);
    },
  };
}

/** The chatbot done: the ticket may now wait for the queue's rule to find it an agent; returns it as it is then. */
async function handedToQueue(deps: AppDeps, ticketId: number): Promise<TicketRow> {
  const after = (await findTicket(deps.db, ticketId))!;
  if (!isWaiting(after)) return after;
  const given = await assignWaitingTickets(deps, after.queueId!);
  if (!given.length) return after;
  return given.find((row) => row.ticket.id === ticketId)?.ticket ?? (await findTicket(deps.db, ticketId))!;
}
