import type { NormalizedMessage } from "../../channels/types";
import type { AppDeps } from "../../deps";
import type { ContactRow } from "../../db/tables";
import { LRM } from "../messages/placeholders";
import { withOversizedNote } from "../messages/inbound-media";
import { findByWid, WAITING } from "../messages/records";
import { arrivalOf } from "../messages/arrival";
import { type StoreMessageInput, storeMessage } from "../messages/store";
import { getSetting } from "../settings/service";
import { gatheredTicket } from "../tickets/records";
import { readTogether } from "../../db/gathered";
import { type BotActions, runBot } from "./bot";
import {
  currentContact,
  findOrCreateContact,
  knownAs,
  knownContact,
  numberToLookUp,
  type ReportedContact,
  refreshPicture,
} from "../contacts/find-or-create";
import { GroupCommit } from "./group-commit";
import { indexNewRows } from "./search-indexes";
import { KeyedLanes } from "../../shared/lanes";
import { findOrCreateTicket, lockedActiveTicket } from "../tickets/find-or-create";
import { assignReopened } from "../tickets/assignment";
import { wakeTicket } from "../tickets/snooze";
import { takeSurveyAnswer } from "../tickets/csat";
import { announceTicketEvents } from "../tickets/history-dtos";
import { isOptOutKeyword, optOut } from "../bulk/opt-out";
import { optOutKeywords } from "../settings-message/service";

const MEDIA_FALLBACK: Partial<Record<NormalizedMessage["kind"], string>> = { audio: "Áudio", sticker: "sticker" };

/**
 * The text a message shows as body and last message: media fall back to their file name. Media
 * over the size limit is not stored, so its name and size stay in the text.
 */
export function bodyOf(message: NormalizedMessage): string {
  if (message.oversizedMedia) return withOversizedNote(message.body, message.oversizedMedia);
  if (message.body) return message.body;
  const file = message.media ?? message.mediaPending;
  if (file) return MEDIA_FALLBACK[message.kind] ?? file.originalName;
  return MEDIA_FALLBACK[message.kind] ?? "";
}

/** What a message's media waits for: its file is `downloading`, or it is `unavailable` for good. */
function mediaStateOf(message: NormalizedMessage): StoreMessageInput["mediaState"] {
  if (message.mediaPending) return "downloading";
  return message.mediaUnavailable || message.oversizedMedia ? "unavailable" : null;
}

/** The contact a message's chat is: its group, or the person at the other end. */
function chatReported(message: NormalizedMessage): ReportedContact {
  if (message.isGroup) return { address: message.chatId, name: message.groupName, isGroup: true };
  return {
    address: message.chatId,
    lid: message.lid,
    name: message.fromMe ? undefined : message.pushName,
    isGroup: false,
  };
}

/** The inbound message pipeline: contact, ticket, idempotent storage, then the bot stage. */
export class InboundPipeline {
  private readonly chats = new KeyedLanes<string>();
  /** A chat's messages, by the address they came from, in the order they arrived. */
  private readonly arrivals = new KeyedLanes<string>();
  private readonly commits: GroupCommit;
  private readonly optOutKeywords: (connectionId: number) => Promise<string>;

  constructor(
    private readonly deps: AppDeps,
    private readonly actions: BotActions,
  ) {
    this.commits = new GroupCommit(deps.db, deps.events, indexNewRows);
    this.optOutKeywords = optOutKeywords(deps);
  }

  /**
   * Handles one message seen on a connection (inbound, or sent from the phone itself), after the earlier ones
   * of its chat: their turn is taken as they arrive, before any lookup, whose answers may come in any order.
   */
  handle(connectionId: number, message: NormalizedMessage): Promise<void> {
    return this.arrivals.run(`${connectionId}:${message.chatId}`, () => this.process(connectionId, message));
  }

  private async process(connectionId: number, message: NormalizedMessage): Promise<void> {
    const { deps } = this;
    // Automatic messages were stored when they were sent; their echo is ignored.
    if (message.fromMe && message.body.startsWith(LRM)) return;
    if (message.isGroup && (await getSetting(deps.db, "CheckMsgIsGroup")) === "enabled") return;
    if (!(await deps.channels.providerOf(connectionId))) return;
    const chat = chatReported(message);
    // Read with the other arrivals of the moment: the senders a batch answered write again together.
    const arrival = await readTogether(deps.db, () =>
      arrivalOf(deps.db, connectionId, message.id, numberToLookUp(chat)),
    );
    if (arrival.storedForGood) return;
    if (message.oversizedMedia)
      deps.log.warn("inbound media over MAX_MEDIA_MB not stored", {
        whatsappId: connectionId,
        messageId: message.id,
        bytes: message.oversizedMedia.bytes,
        limitMb: deps.config.maxMediaMb,
      });

    let chatContact = await this.contactOf(chat, knownAs(chat, arrival.contact));
    let sender: ContactRow | null = null;
    if (!message.fromMe) sender = message.isGroup ? await this.authorOf(message) : chatContact;

    await this.chats.run(`${chatContact.id}:${connectionId}`, async () => {
      // Ticket and message are written together and committed with the other chats' messages of the moment
      // (see GroupCommit); the bot stage runs once this message is durable.
      const written = await this.commits.run(async (events) => {
        const batch = { ...deps, events };
        const existing = (await findByWid(deps.db, connectionId, message.id)) ?? null;
        if (existing && existing.mediaType !== WAITING) return undefined;
        const chatSender = sender?.id === chatContact.id;
        chatContact = await currentContact(deps, chatContact);
        if (chatSender) sender = chatContact;
        else if (sender) sender = await currentContact(deps, sender);
        const chat = { contactId: chatContact.id, whatsappId: connectionId };
        const active = (await lockedActiveTicket(deps.db, chat)) ?? null;
        // An answer to the satisfaction survey stays in the resolved ticket's history: no reopening, no bot. A chat
        // with an open or waiting ticket answers no survey.
        const answer =
          !active && this.mayAnswerSurvey(message)
            ? await takeSurveyAnswer(batch, chat, message.body, { lockedWithoutActive: true })
            : undefined;
        if (answer) {
          const input = {
            ...this.storeInput(connectionId, message, answer.ticket.id, sender),
            read: true,
            existing,
            ticketContact: chatContact,
          };
          const stored = await storeMessage(batch, { ...input, countUnread: false });
          if (answer.event) await announceTicketEvents(batch, [answer.event]);
          return { ticket: answer.ticket, stored, surveyAnswer: true };
        }
        const { ticket, change } = await findOrCreateTicket(batch, {
          ...chat,
          isGroup: message.isGroup,
          cause: message.fromMe ? "phone" : "customer",
          contact: chatContact,
          active,
        });
        if (ticket.snoozedUntil && !message.fromMe) await wakeTicket(batch, ticket.id, "customer");
        const stored = await storeMessage(batch, {
          ...this.storeInput(connectionId, message, ticket.id, sender),
          existing,
          ticketContact: chatContact,
        });
        return { ticket, change, stored };
      });
      if (!written) return;
      const { ticket, stored } = written;
      // Before the bot stage: a ticket given to an agent has no bot to answer.
      await assignReopened(deps, written);
      if (message.fromMe || message.isGroup || message.kind === "waiting" || "surveyAnswer" in written) return;
      if (!stored.created && !stored.replaced) return;
      // Read with the batch's other tickets: its messages go on together once it is committed.
      const fresh = (await readTogether(deps.db, () => gatheredTicket(deps.db, ticket.id)))!;
      try {
        if (chatContact.number && isOptOutKeyword(await this.optOutKeywords(connectionId), message.body))
          return await optOut(deps, connectionId, fresh, chatContact.number);
        await runBot(deps, this.actions, connectionId, fresh, message.selectedId ?? message.body);
      } catch (error) {
        deps.log.error("bot stage failed", { whatsappId: connectionId, ticketId: ticket.id, error });
      }
    });

    // Not awaited: a slow picture query must not hold up this chat's next message.
    void refreshPicture(deps, connectionId, chatContact).catch((error) =>
      deps.log.warn("profile picture refresh failed", { whatsappId: connectionId, contactId: chatContact.id, error }),
    );
  }

  /** A text a contact wrote in a one-to-one chat: the only kind of message that may answer the survey. */
  private mayAnswerSurvey(message: NormalizedMessage): boolean {
    return !message.fromMe && !message.isGroup && message.kind === "chat" && message.body.trim() !== "";
  }

  /**
   * The contact a message reports: `known` when it was read at once, otherwise found or created in the group
   * commit, so a new chat's contact is committed with the other writes of the moment instead of in a commit of its own.
   */
  private contactOf(input: ReportedContact, known: ContactRow | undefined): ContactRow | Promise<ContactRow> {
    return known ?? this.commits.run(async (events) => await findOrCreateContact({ ...this.deps, events }, input));
  }

  /** The contact who wrote a group message, when the network named them. */
  private async authorOf(message: NormalizedMessage): Promise<ContactRow | null> {
    if (!message.author) return null;
    const author = { address: message.author.phone, lid: message.lid, name: message.author.name, isGroup: false };
    return await this.contactOf(author, await knownContact(this.deps.db, author));
  }

  private storeInput(
    connectionId: number,
    message: NormalizedMessage,
    ticketId: number,
    sender: ContactRow | null,
  ): StoreMessageInput {
    return {
      whatsappId: connectionId,
      wid: message.id,
      ticketId,
      contactId: sender?.id ?? null,
      body: bodyOf(message),
      fromMe: message.fromMe,
      ack: message.ack,
      mediaType: message.kind,
      mediaUrl: message.media?.fileName ?? null,
      mediaMime: (message.media ?? message.mediaPending)?.mimetype ?? null,
      fileName: (message.media ?? message.mediaPending)?.originalName ?? null,
      mediaState: mediaStateOf(message),
      quotedWid: message.quotedId ?? null,
      remoteJid: message.remoteJid ?? null,
      participant: message.participant ?? null,
      senderName: message.isGroup ? (message.author?.name ?? sender?.name ?? null) : null,
      dataJson: message.raw ?? null,
      at: message.at,
    };
  }

  /** Runs `job` under the chat lock of (contact, connection), as message handling does. */
  runForChat<T>(contactId: number, connectionId: number, job: () => Promise<T>): Promise<T> {
    return this.chats.run(`${contactId}:${connectionId}`, job);
  }
}
