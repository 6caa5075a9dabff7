import type { AppDeps } from "../../deps";
import { forbidden, notFound } from "../../errors";
import type { AiTranslationDto } from "../../shared/contracts/ai";
import type { AuthUser } from "../../shared/auth-user";
import { findMessage } from "../messages/records";
import { assertMaySend, canSeeTicket } from "../tickets/access";
import { getTicketRow } from "../tickets/service";
import { assertUsable, complete } from "./client";
import { clip, languageName, ticketContext } from "./context";
import { readAiConfig } from "./settings";

/** The longest text sent for translation. */
const TRANSLATE_CHARS = 4_000;

/** POST /messages/:id/ai/translate: a message of a ticket the user may see, in `language` (their interface's). */
export async function translateMessage(
  deps: AppDeps,
  user: AuthUser,
  messageId: number,
  language: string,
): Promise<AiTranslationDto> {
  const message = await findMessage(deps.db, messageId);
  if (!message || message.isDeleted || !message.body.trim()) throw notFound("ERR_NO_MESSAGE_FOUND");
  const ticket = await getTicketRow(deps, message.ticketId);
  if (!canSeeTicket(user, ticket)) throw forbidden();
  const config = await readAiConfig(deps.db);
  assertUsable(config, "translate");
  const target = languageName(language);
  const text = await complete(deps, config, {
    feature: "translate",
    ticketId: ticket.id,
    userId: user.id,
    messages: [
      {
        role: "system",
        content:
          `Translate the text the user sends into ${target}. Answer with the translation only, keeping emoji, ` +
          `line breaks and *formatting*. If it already is in ${target}, answer it unchanged.`,
      },
      { role: "user", content: clip(message.body, TRANSLATE_CHARS) },
    ],
  });
  return { text: text.trim() };
}

/**
 * POST /tickets/:id/ai/translate-reply: the agent's draft in the language the customer writes in (the model reads
 * it from the conversation), for whoever may send on the ticket. Nothing is sent or stored.
 */
export async function translateReply(
  deps: AppDeps,
  user: AuthUser,
  ticketId: number,
  draft: string,
): Promise<AiTranslationDto> {
  const ticket = await getTicketRow(deps, ticketId);
  assertMaySend(user, ticket);
  const config = await readAiConfig(deps.db);
  assertUsable(config, "translate");
  const context = await ticketContext(deps, config, ticket);
  const text = await complete(deps, config, {
    feature: "translate",
    ticketId,
    userId: user.id,
    messages: [
      {
        role: "system",
        content:
          "You translate a customer-service agent's reply into the language the customer writes in, as their " +
          "messages show. Answer with the translated reply only, keeping emoji, line breaks and *formatting*. If " +
          "the reply already is in the customer's language, answer it unchanged.",
      },
      {
        role: "user",
        content: `Conversation, oldest first:\n${context.transcript || "(no messages yet)"}\n\nReply to translate:\n${clip(draft, TRANSLATE_CHARS)}`,
      },
    ],
  });
  return { text: text.trim() };
}
