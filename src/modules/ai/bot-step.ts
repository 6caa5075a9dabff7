import type { ConnectionRow, TicketRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import { autoText, i18nFor } from "../../i18n/server";
import { storeAutomaticNote } from "../messages/notes";
import { writeSummary } from "./assist";
import { type ChatMessage, completeWithTools } from "./client";
import { quickAnswerLines, ticketContext } from "./context";
import { type AiConfig, readAiConfig } from "./settings";
import { callsOnTicket } from "./usage";

/** What the AI step needs of the chatbot's actions (inbound/bot.ts): send an automatic text, leave bot mode. */
export interface BotHands {
  send(ticket: TicketRow, body: string): Promise<void>;
  change(ticket: TicketRow, changes: { isBot?: boolean }): Promise<TicketRow | undefined>;
}

type Reason = "asked" | "turns" | "model" | "error";

/** A customer asking for a person, in the languages of the connections. */
const ASKS_FOR_PERSON = /\b(atendente|humano|humana|pessoa|persona|human|person|agent|agente|operador|operator)\b/i;

const HANDOFF = {
  name: "handoff",
  description: "Hand the conversation over to a person of the team (the customer asks for one, or you cannot help).",
};

/** Whether the AI answers the waiting tickets of this queue first (AI on and the queue chosen for its step). */
export async function answersWithAi(deps: Pick<AppDeps, "db">, queueId: number | null): Promise<boolean> {
  if (queueId == null) return false;
  const config = await readAiConfig(deps.db);
  return config.enabled && !!config.baseUrl && !!config.model && config.botQueueIds.includes(queueId);
}

/**
 * The chatbot's AI step for a customer's message on a ticket waiting in an AI queue: the model answers from the
 * admin's knowledge text and the quick answers, as the bot. It hands over to a person when the customer asks for
 * one, when the model calls `handoff` (or answers nothing), after `botMaxTurns` answers in this episode, or when
 * the endpoint fails: the customer is told, the bot lets go of the ticket (the queue's rule may then assign it),
 * and a private note says why, with a summary when the endpoint still answers.
 */
export async function aiBotStep(
  deps: AppDeps,
  hands: BotHands,
  connection: ConnectionRow,
  ticket: TicketRow,
  text: string,
) {
  const config = await readAiConfig(deps.db);
  if (ASKS_FOR_PERSON.test(text)) return await handOver(deps, hands, config, connection, ticket, "asked");
  const since = (ticket.episodeStartedAt ?? ticket.createdAt).getTime();
  if ((await callsOnTicket(deps, ticket.id, "chatbot", since)) >= config.botMaxTurns)
    return await handOver(deps, hands, config, connection, ticket, "turns");
  let answer: { text: string; toolCalls: string[] };
  try {
    answer = await completeWithTools(deps, config, {
      feature: "chatbot",
      ticketId: ticket.id,
      messages: await botPrompt(deps, config, ticket),
      tools: [HANDOFF],
    });
  } catch (error) {
    deps.log.warn("AI step failed", { ticketId: ticket.id, error: error instanceof AppError ? error.code : error });
    return await handOver(deps, hands, config, connection, ticket, "error");
  }
  if (answer.toolCalls.includes(HANDOFF.name) || !answer.text.trim())
    return await handOver(deps, hands, config, connection, ticket, "model");
  await hands.send(ticket, answer.text.trim());
}

async function botPrompt(deps: AppDeps, config: AiConfig, ticket: TicketRow): Promise<ChatMessage[]> {
  const context = await ticketContext(deps, config, ticket);
  return [
    {
      role: "system",
      content:
        `You are the first-line assistant of ${context.queueName || "the support team"} on WhatsApp. Answer the ` +
        "customer's last message briefly, in their language, using only the knowledge and the quick answers " +
        "below. When the customer asks for a person, when the answer is not there, or when you are unsure, call " +
        "the function handoff instead of answering. Never invent prices, dates or promises.",
    },
    {
      role: "user",
      content: [
        `Knowledge:\n${config.botKnowledge.trim() || "(none)"}`,
        `Quick answers:\n${(await quickAnswerLines(deps)) || "(none)"}`,
        `Customer's name: ${context.contactName || "unknown"}`,
        `Conversation, oldest first ("Agent" lines without a name are yours):\n${context.transcript}`,
      ].join("\n\n"),
    },
  ];
}

async function handOver(
  deps: AppDeps,
  hands: BotHands,
  config: AiConfig,
  connection: ConnectionRow,
  ticket: TicketRow,
  reason: Reason,
) {
  await hands.send(ticket, autoText(connection.language, "aiHandoff"));
  const after = (await hands.change(ticket, { isBot: false })) ?? ticket;
  const t = i18nFor(connection.language).t;
  let note = t("chat.ai.handoffNote", { reason: t(`chat.ai.reason.${reason}`) });
  if (reason !== "error")
    try {
      note += `\n\n${await writeSummary(deps, config, after, connection.language)}`;
    } catch (error) {
      deps.log.warn("AI hand-over summary not written", { ticketId: ticket.id, error });
    }
  await storeAutomaticNote(deps, after, t("chat.ai.summary"), note);
}
