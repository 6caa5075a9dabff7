import type { TicketRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { forbidden } from "../../errors";
import type { AuthUser } from "../../shared/auth-user";
import { assertMaySend, canSeeTicket } from "../tickets/access";
import { getTicketRow } from "../tickets/service";
import { assertUsable, type ChatMessage, complete, streamCompletion } from "./client";
import { languageName, quickAnswerLines, ticketContext } from "./context";
import { type AiConfig, readAiConfig } from "./settings";

type Deps = Pick<AppDeps, "db" | "clock" | "config" | "log">;

/**
 * POST /tickets/:id/ai/suggest: a reply the agent could send next, streamed as it is written. Only for whoever
 * may send on the ticket. The first piece is awaited before answering, so a refusal of the endpoint (down, key,
 * limits) is an ordinary error answer; a failure later ends the stream with its code.
 */
export async function suggestReply(deps: AppDeps, user: AuthUser, ticketId: number): Promise<AsyncGenerator<string>> {
  const ticket = await getTicketRow(deps, ticketId);
  assertMaySend(user, ticket);
  const config = await readAiConfig(deps.db);
  assertUsable(config, "suggest");
  const context = await ticketContext(deps, config, ticket);
  const messages: ChatMessage[] = [
    {
      role: "system",
      content:
        "You help a customer-service agent answer a customer on WhatsApp. Write only the next message the agent " +
        "could send: in the customer's language, short, friendly, without a greeting if the conversation already " +
        "has one. Use a quick answer when one fits. Never invent facts, prices or promises: when something is " +
        "missing, ask the customer for it.",
    },
    {
      role: "user",
      content: [
        `Customer's name: ${context.contactName || "unknown"}`,
        `Queue: ${context.queueName || "none"}`,
        `Quick answers:\n${(await quickAnswerLines(deps)) || "(none)"}`,
        `Conversation, oldest first:\n${context.transcript || "(no messages yet)"}`,
        "Write the agent's next message.",
      ].join("\n\n"),
    },
  ];
  const pieces = streamCompletion(deps, config, { feature: "suggest", ticketId, userId: user.id, messages });
  const first = await pieces.next();
  return (async function* () {
    if (!first.done) yield first.value;
    yield* pieces;
  })();
}

/** POST /tickets/:id/ai/summary: a summary for whoever may see the ticket, in `language` (pt, en, es). */
export async function summarizeTicket(deps: Deps, user: AuthUser, ticketId: number, language: string) {
  const ticket = await getTicketRow(deps, ticketId);
  if (!canSeeTicket(user, ticket)) throw forbidden();
  return { summary: await summaryOf(deps, ticket, language, user.id) };
}

/** The summary of a ticket's conversation: who the customer is, what they want, what was done, what is pending. */
export async function summaryOf(deps: Deps, ticket: TicketRow, language: string, userId?: number): Promise<string> {
  const config = await readAiConfig(deps.db);
  assertUsable(config, "summary");
  return await writeSummary(deps, config, ticket, language, userId);
}

/** The summary whether or not the summary feature is on (the chatbot's AI step hands over with one). */
export async function writeSummary(
  deps: Deps,
  config: AiConfig,
  ticket: TicketRow,
  language: string,
  userId?: number,
): Promise<string> {
  const context = await ticketContext(deps, config, ticket);
  const messages: ChatMessage[] = [
    {
      role: "system",
      content:
        "You summarize a customer-service conversation for a colleague who takes it over. Answer in " +
        `${languageName(language)} with four short lines: Customer (who they are), Wants (what ` +
        "they ask for), Done (what was done or answered), Pending (what is still open). Use only what the " +
        "conversation says.",
    },
    {
      role: "user",
      content: [
        `Customer's name: ${context.contactName || "unknown"}`,
        `Queue: ${context.queueName || "none"}`,
        `Conversation, oldest first:\n${context.transcript || "(no messages yet)"}`,
      ].join("\n\n"),
    },
  ];
  return (await complete(deps, config, { feature: "summary", ticketId: ticket.id, userId, messages })).trim();
}
