import type { TicketRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { findContact } from "../contacts/lookup";
import { recentMessages } from "../messages/records";
import { listQuickAnswers } from "../quick-answers/service";
import { findQueue } from "../queues/lookup";
import type { AiConfig } from "./settings";

/** How many of the ticket's latest messages a prompt carries. */
const RECENT_MESSAGES = 30;
/** A longer message is cut in the prompt. */
const MESSAGE_CHARS = 1_500;
const QUICK_ANSWER_CHARS = 400;

/**
 * What a prompt says about a ticket: the contact's name (never their number), the queue's name, and the latest
 * messages as a transcript; private notes only when the admin allowed them. Nothing else of the installation
 * (keys, tokens, other tickets) is ever put in.
 */
export async function ticketContext(deps: Pick<AppDeps, "db">, config: AiConfig, ticket: TicketRow) {
  const contact = await findContact(deps.db, ticket.contactId);
  const queue = ticket.queueId != null ? await findQueue(deps.db, ticket.queueId) : undefined;
  const rows = await recentMessages(deps.db, ticket.id, RECENT_MESSAGES, config.includeNotes);
  const transcript = rows.map((m) => {
    const who = m.isPrivate
      ? `Private note by ${m.senderName ?? "agent"}`
      : m.fromMe
        ? `Agent${m.senderName ? ` ${m.senderName}` : ""}`
        : "Customer";
    const media = m.mediaType !== "chat" ? `(${m.mediaType}) ` : "";
    return `[${who}] ${media}${clip(m.body, MESSAGE_CHARS)}`;
  });
  return {
    contactName: contact?.name ?? "",
    queueName: queue?.name ?? "",
    transcript: transcript.join("\n"),
  };
}

/** The quick answers the team wrote (their first page), as `/shortcut: text` lines. */
export async function quickAnswerLines(deps: Pick<AppDeps, "db">): Promise<string> {
  const { quickAnswers } = await listQuickAnswers(deps.db, {});
  return quickAnswers.map((q) => `/${q.shortcut}: ${clip(q.message, QUICK_ANSWER_CHARS)}`).join("\n");
}

const LANGUAGE_NAMES: Record<string, string> = { pt: "Portuguese", en: "English", es: "Spanish" };

/** The English name of an interface language (pt, en, es), as prompts name it. */
export const languageName = (language: string) => LANGUAGE_NAMES[language] ?? "English";

export const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
