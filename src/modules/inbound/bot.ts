import type { AppDeps } from "../../deps";
import type { ChatbotRow, TicketRow, ConnectionRow } from "../../db/tables";
import { queueIdsOfConnections } from "../connections/lookup";
import { firstLevelOptions } from "../queues/chatbot-tree";
import { childOptions, findChatbotOption, findQueue, queueSummaries } from "../queues/lookup";
import { clearDialog, type Dialog, loadDialog, saveDialog } from "../tickets/dialogs";
import { isBackKey, optionNumber, renderMenu } from "./menu";
import { isInsideWorkHours } from "./work-hours";

/** How the bot acts on a ticket: through the messages and tickets services (auto sends, bot-driven changes). */
export interface BotActions {
  /** Sends an automatic text (LRM + placeholders) into the ticket and stores it. */
  send(ticket: TicketRow, body: string): Promise<void>;
  /**
   * Applies a bot-driven change (queue, user, status, isBot) with the tickets service's events; returns the row,
   * or nothing when the ticket is no longer as the bot saw it (an agent took it meanwhile): the bot then stops.
   */
  change(
    ticket: TicketRow,
    changes: { queueId?: number | null; userId?: number | null; status?: "open" | "pending"; isBot?: boolean },
  ): Promise<TicketRow | undefined>;
}

/** The out-of-work message goes out at most once per ticket in this window. */
export const OUT_OF_WORK_INTERVAL_MS = 5 * 60 * 1000;
/** After this many invalid answers in a row the chatbot stops and the ticket waits for an agent. */
const MENU_REPEAT_MS = 3000;
export const MAX_INVALID_ANSWERS = 3;

type QueueOption = { id: number; name: string; greetingMessage: string };

/**
 * The bot stage after an inbound 1:1 message was stored: work hours, then the connection's queue
 * menu for tickets without a queue, or the queue's chatbot for tickets in a queue, all with the
 * Recommends. Never runs for groups, own messages, or tickets with an agent.
 */
export async function runBot(
  deps: AppDeps,
  actions: BotActions,
  connection: ConnectionRow,
  ticket: TicketRow,
  text: string,
) {
  if (ticket.isGroup || ticket.userId != null || ticket.status !== "pending") return;
  const dialog = await loadDialog(deps.db, ticket.id);

  if (!isInsideWorkHours(connection, deps.clock.now(), deps.config.timeZone)) {
    const last = dialog?.outOfWorkSentAt?.getTime() ?? 0;
    if (connection.outOfWorkMessage.trim() && deps.clock.now() - last >= OUT_OF_WORK_INTERVAL_MS) {
      await saveDialog(deps.db, ticket.id, { outOfWorkSentAt: new Date(deps.clock.now()) });
      await actions.send(ticket, connection.outOfWorkMessage);
    }
    return;
  }

  if (ticket.queueId == null) return queueMenu(deps, actions, connection, ticket, dialog, text);
  if (ticket.isBot) return chatbot(deps, actions, connection, ticket, dialog, text);
}

/** The queues the connection offers, in id order. */
async function connectionQueues(deps: AppDeps, connectionId: number): Promise<QueueOption[]> {
  const ids = (await queueIdsOfConnections(deps.db, [connectionId])).get(connectionId) ?? [];
  return (await queueSummaries(deps.db, ids)).map(({ id, name, greetingMessage }) => ({ id, name, greetingMessage }));
}

async function firstLevel(deps: AppDeps, queueId: number): Promise<ChatbotRow[]> {
  return await firstLevelOptions(deps.db, [queueId]);
}

/** The connection greeting and the numbered queue list (no back line at this level). */
/** A burst of messages (several lines typed quickly) gets one menu, not one per message. */
function menuJustSent(deps: AppDeps, dialog: Dialog | undefined): boolean {
  return !!dialog?.menuSentAt && deps.clock.now() - dialog.menuSentAt.getTime() < MENU_REPEAT_MS;
}

function mainMenu(connection: ConnectionRow, list: QueueOption[]): string {
  return renderMenu(connection.greetingMessage, list, false);
}

async function queueMenu(
  deps: AppDeps,
  actions: BotActions,
  connection: ConnectionRow,
  ticket: TicketRow,
  dialog: Dialog | undefined,
  text: string,
) {
  const list = await connectionQueues(deps, connection.id);
  if (list.length === 0) {
    if (!dialog?.menuSentAt && connection.greetingMessage.trim()) {
      await saveDialog(deps.db, ticket.id, { menuSentAt: new Date(deps.clock.now()) });
      await actions.send(ticket, connection.greetingMessage);
    }
    return;
  }
  const n = optionNumber(text);
  const chosen = list.length === 1 ? list[0] : n != null ? list[n - 1] : undefined;
  if (!chosen) {
    if (menuJustSent(deps, dialog)) return;
    await saveDialog(deps.db, ticket.id, { menuSentAt: new Date(deps.clock.now()) });
    await actions.send(ticket, mainMenu(connection, list));
    return;
  }
  const updated = await actions.change(ticket, { queueId: chosen.id, isBot: true });
  if (!updated) return;
  await saveDialog(deps.db, ticket.id, { chatbotId: null, invalidCount: 0 });
  const options = await firstLevel(deps, chosen.id);
  const body = options.length ? renderMenu(chosen.greetingMessage, options, true) : chosen.greetingMessage.trim();
  if (body) await actions.send(updated, body);
}

async function chatbot(
  deps: AppDeps,
  actions: BotActions,
  connection: ConnectionRow,
  ticket: TicketRow,
  dialog: Dialog | undefined,
  text: string,
) {
  const queueId = ticket.queueId!;
  const node = dialog?.chatbotId != null ? await findChatbotOption(deps.db, dialog.chatbotId) : undefined;
  const options = node ? await childOptions(deps.db, node.id) : await firstLevel(deps, queueId);
  if (options.length === 0) return;

  if (isBackKey(text)) {
    const updated = await actions.change(ticket, { queueId: null, isBot: true });
    if (!updated) return;
    await clearDialog(deps.db, ticket.id);
    await actions.send(updated, mainMenu(connection, await connectionQueues(deps, connection.id)));
    return;
  }

  const n = optionNumber(text);
  const option = n != null ? options[n - 1] : undefined;
  if (!option) {
    const invalid = (dialog?.invalidCount ?? 0) + 1;
    if (invalid >= MAX_INVALID_ANSWERS) {
      await clearDialog(deps.db, ticket.id);
      await actions.change(ticket, { isBot: false });
      return;
    }
    if (menuJustSent(deps, dialog)) return;
    await saveDialog(deps.db, ticket.id, { invalidCount: invalid, menuSentAt: new Date(deps.clock.now()) });
    const greeting = node ? node.greetingMessage : ((await findQueue(deps.db, queueId))?.greetingMessage ?? "");
    await actions.send(ticket, renderMenu(greeting, options, true));
    return;
  }

  if (!option.greetingMessage.trim()) {
    await clearDialog(deps.db, ticket.id);
    await actions.change(ticket, { isBot: false });
    return;
  }
  const next = await childOptions(deps.db, option.id);
  let current: TicketRow | undefined = ticket;
  if (option.isAgent && option.userId != null)
    current = await actions.change(current, { userId: option.userId, status: "open" });
  if (!current) return;
  if (next.length) await saveDialog(deps.db, ticket.id, { chatbotId: option.id, invalidCount: 0 });
  else {
    await clearDialog(deps.db, ticket.id);
    if (current.isBot) current = (await actions.change(current, { isBot: false })) ?? current;
  }
  await actions.send(current, next.length ? renderMenu(option.greetingMessage, next, true) : option.greetingMessage);
}
