import type { AppDeps } from "../../deps";
import type { MenuChoices } from "../../channels/types";
import type { ChatbotRow, TicketRow, ConnectionRow } from "../../db/tables";
import { aiBotStep, answersWithAi } from "../ai/bot-step";
import { findConnection, queueIdsOfConnections } from "../connections/lookup";
import { firstLevelOptions } from "../queues/chatbot-tree";
import { childOptions, findChatbotOption, findQueue, queueSummaries } from "../queues/lookup";
import { clearDialog, type Dialog, gatheredDialog, saveDialog } from "../tickets/dialogs";
import { readTogether } from "../../db/gathered";
import { getSetting } from "../settings/service";
import { type BotMessage, invalidAnswerMenu, isBackKey, type MenuStyle, menuMessage, optionNumber } from "./menu";
import { isInsideWorkHours } from "./work-hours";
import { sharedInFlight } from "../../shared/in-flight";

/** How the bot acts on a ticket: through the messages and tickets services (auto sends, bot-driven changes). */
export interface BotActions {
  /** Sends an automatic text (LRM + placeholders) into the ticket and stores it; a menu with its choices, if any. */
  send(ticket: TicketRow, body: string, choices?: MenuChoices): Promise<void>;
  /**
   * Applies a bot-driven change (queue, user, status, isBot) with the tickets service's events; returns the row,
   * or nothing when the ticket is no longer as the bot saw it (an agent took it meanwhile): the bot then stops.
   */
  change(
    ticket: TicketRow,
    changes: { queueId?: number | null; userId?: number | null; status?: "open" | "pending"; isBot?: boolean },
  ): Promise<TicketRow | undefined>;
  /** The bot gives up after `invalidAnswers` invalid answers in a row: the ticket waits for a person (recorded). */
  stop(ticket: TicketRow, invalidAnswers: number): Promise<void>;
}

/** The out-of-work message goes out at most once per ticket in this window. */
export const OUT_OF_WORK_INTERVAL_MS = 5 * 60 * 1000;
/** Invalid answers get the current menu again at most once in this window. */
export const MENU_REPEAT_MS = 60 * 1000;
/** Lines typed this soon after a menu went out were written before it could be read: they answer nothing. */
const MENU_BURST_MS = 3000;
/** After this many invalid answers in a row the chatbot stops and the ticket waits for a person. */
export const MAX_INVALID_ANSWERS = 3;

type QueueOption = { id: number; name: string; greetingMessage: string };

/**
 * The bot stage after an inbound 1:1 message was stored: work hours, then the connection's queue
 * menu for tickets without a queue, or the queue's chatbot for tickets in a queue, all with the
 * Recommends. Never runs for groups, own messages, tickets with an agent, or tickets the bot gave up on.
 */
export async function runBot(
  deps: AppDeps,
  actions: BotActions,
  connectionId: number,
  ticket: TicketRow,
  text: string,
) {
  if (ticket.isGroup || ticket.userId != null || ticket.status !== "pending") return;
  // Read here, not kept: an admin's change to the texts or work hours applies from the next message. Both reads
  // go out together (one round trip on PostgreSQL).
  const [connection, stored] = await Promise.all([
    connectionNow(deps, connectionId),
    readTogether(deps.db, () => gatheredDialog(deps.db, ticket.id)),
  ]);
  if (!connection) return;
  const dialog = ofThisEpisode(ticket, stored);

  if (!isInsideWorkHours(connection, deps.clock.now(), deps.config.timeZone)) {
    const last = dialog?.outOfWorkSentAt?.getTime() ?? 0;
    if (connection.outOfWorkMessage.trim() && deps.clock.now() - last >= OUT_OF_WORK_INTERVAL_MS) {
      await saveDialog(deps.db, ticket.id, { outOfWorkSentAt: new Date(deps.clock.now()) });
      await actions.send(ticket, connection.outOfWorkMessage);
    }
    return;
  }

  if (gaveUp(ticket, dialog)) return;
  if (ticket.queueId == null) return queueMenu(deps, actions, connection, ticket, dialog, text);
  if (!ticket.isBot) return;
  if (await answersWithAi(deps, ticket.queueId)) return await aiBotStep(deps, actions, connection, ticket, text);
  return await chatbot(deps, actions, connection, ticket, dialog, text);
}

/** A dialog of the ticket's earlier life (before it was reopened) does not count: the bot starts over. */
function ofThisEpisode(ticket: TicketRow, dialog: Dialog | undefined): Dialog | undefined {
  const started = ticket.episodeStartedAt?.getTime();
  const sent = dialog?.menuSentAt?.getTime();
  if (!dialog || started == null || sent == null || sent >= started) return dialog;
  return { ...dialog, chatbotId: null, invalidCount: 0, menuSentAt: null };
}

/** The bot stopped after invalid answers and nobody has put the ticket back to it (see stopChatbot). */
function gaveUp(ticket: TicketRow, dialog: Dialog | undefined): boolean {
  return !ticket.isBot && (dialog?.invalidCount ?? 0) >= MAX_INVALID_ANSWERS;
}

/**
 * The connection's row and its queues, read for each message, but once for the messages whose bot stages ask at
 * the same time (a group commit's, answered together): per database, see sharedInFlight.
 */
const connectionReads = new WeakMap<
  object,
  {
    row: (connectionId: number) => Promise<ConnectionRow | undefined>;
    queues: (connectionId: number) => Promise<QueueOption[]>;
  }
>();

function readsOf(deps: AppDeps) {
  let reads = connectionReads.get(deps.db);
  if (!reads) {
    reads = {
      row: sharedInFlight((connectionId: number) => findConnection(deps.db, connectionId)),
      queues: sharedInFlight(async (connectionId: number) => {
        const ids = (await queueIdsOfConnections(deps.db, [connectionId])).get(connectionId) ?? [];
        return (await queueSummaries(deps.db, ids)).map(({ id, name, greetingMessage }) => ({
          id,
          name,
          greetingMessage,
        }));
      }),
    };
    connectionReads.set(deps.db, reads);
  }
  return reads;
}

function connectionNow(deps: AppDeps, connectionId: number): Promise<ConnectionRow | undefined> {
  return readsOf(deps).row(connectionId);
}

/** The queues the connection offers, in id order. */
function connectionQueues(deps: AppDeps, connectionId: number): Promise<QueueOption[]> {
  return readsOf(deps).queues(connectionId);
}

async function firstLevel(deps: AppDeps, queueId: number): Promise<ChatbotRow[]> {
  return await firstLevelOptions(deps.db, [queueId]);
}

/**
 * A menu of the connection, styled by the `chatBotType` setting where the network shows choices to tap (only the
 * Cloud API does: the setting is not even read for the others).
 */
async function menuOf(
  deps: AppDeps,
  connection: ConnectionRow,
  greeting: string,
  options: readonly { name: string }[],
  withBack: boolean,
): Promise<BotMessage> {
  const style = connection.provider === "cloud" ? ((await getSetting(deps.db, "chatBotType")) as MenuStyle) : "text";
  return menuMessage(style, greeting, options, withBack, connection.language);
}

/** The connection greeting and the numbered queue list (no back line at this level). */
async function mainMenu(deps: AppDeps, connection: ConnectionRow, list: QueueOption[]): Promise<BotMessage> {
  return await menuOf(deps, connection, connection.greetingMessage, list, false);
}

/** Sends a menu (or greeting) and remembers when, with no invalid answer counted against it yet. */
async function sendMenu(
  deps: AppDeps,
  actions: BotActions,
  ticket: TicketRow,
  menu: BotMessage,
  chatbotId?: number | null,
) {
  await saveDialog(deps.db, ticket.id, {
    invalidCount: 0,
    menuSentAt: new Date(deps.clock.now()),
    ...(chatbotId !== undefined ? { chatbotId } : {}),
  });
  await actions.send(ticket, menu.body, menu.choices);
}

/**
 * An answer that is none of the menu's options. Before any menu it gets the menu; lines typed right after the menu
 * answer nothing. Otherwise it counts:
 * the menu goes again, saying the answer was invalid, at most once a minute, and at the MAX_INVALID_ANSWERS-th in a
 * row the bot stops.
 */
async function invalidAnswer(
  deps: AppDeps,
  actions: BotActions,
  connection: ConnectionRow,
  ticket: TicketRow,
  dialog: Dialog | undefined,
  menu: BotMessage,
) {
  // The first message of a conversation is no answer: it gets the menu.
  if (!dialog?.menuSentAt) return await sendMenu(deps, actions, ticket, menu);
  const now = deps.clock.now();
  const sentAt = dialog.menuSentAt.getTime();
  if (now - sentAt < MENU_BURST_MS) return;
  const invalid = dialog.invalidCount + 1;
  if (invalid >= MAX_INVALID_ANSWERS) return await actions.stop(ticket, invalid);
  const repeat = now - sentAt >= MENU_REPEAT_MS;
  await saveDialog(deps.db, ticket.id, { invalidCount: invalid, ...(repeat ? { menuSentAt: new Date(now) } : {}) });
  if (!repeat) return;
  const again = invalidAnswerMenu(menu, connection.language);
  await actions.send(ticket, again.body, again.choices);
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
    if (!dialog?.menuSentAt && connection.greetingMessage.trim())
      await sendMenu(deps, actions, ticket, { body: connection.greetingMessage });
    return;
  }
  const n = optionNumber(text);
  const chosen = list.length === 1 ? list[0] : n != null ? list[n - 1] : undefined;
  if (!chosen)
    return await invalidAnswer(deps, actions, connection, ticket, dialog, await mainMenu(deps, connection, list));
  const updated = await actions.change(ticket, { queueId: chosen.id, isBot: true });
  if (!updated) return;
  // The only queue, answered by the AI: it answers this first message itself.
  if (list.length === 1 && (await answersWithAi(deps, chosen.id)))
    return await aiBotStep(deps, actions, connection, updated, text);
  const options = await firstLevel(deps, chosen.id);
  const menu = options.length
    ? await menuOf(deps, connection, chosen.greetingMessage, options, true)
    : { body: chosen.greetingMessage.trim() };
  if (menu.body) await sendMenu(deps, actions, updated, menu, null);
  else await saveDialog(deps.db, ticket.id, { chatbotId: null, invalidCount: 0 });
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
    const menu = await mainMenu(deps, connection, await connectionQueues(deps, connection.id));
    await sendMenu(deps, actions, updated, menu, null);
    return;
  }

  const n = optionNumber(text);
  const option = n != null ? options[n - 1] : undefined;
  if (!option) {
    const greeting = node ? node.greetingMessage : ((await findQueue(deps.db, queueId))?.greetingMessage ?? "");
    const menu = await menuOf(deps, connection, greeting, options, true);
    return await invalidAnswer(deps, actions, connection, ticket, dialog, menu);
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
  if (next.length)
    return await sendMenu(
      deps,
      actions,
      current,
      await menuOf(deps, connection, option.greetingMessage, next, true),
      option.id,
    );
  await clearDialog(deps.db, ticket.id);
  if (current.isBot) current = (await actions.change(current, { isBot: false })) ?? current;
  await actions.send(current, option.greetingMessage);
}
