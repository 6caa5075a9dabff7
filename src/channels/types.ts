import type { ChatPresence } from "../shared/contracts/presence";
import type { Provider } from "../shared/contracts/providers";
import type {
  CheckedTemplate,
  MessageTemplate,
  TemplateHeaderType,
  TemplateMessage,
} from "../shared/contracts/templates";

/**
 * The channel layer's contracts.
 *
 * A ChannelDriver speaks one messaging network (Baileys = real WhatsApp Web, sandbox = the built-in simulated
 * network) for many connections at once. Drivers never import services or the hub: everything they learn is
 * reported through the ChannelSink, already normalised (no provider payloads beyond this file's types).
 *
 * Services never talk to a driver either: they use `Channels`, implemented by the ConnectionManager, which
 * owns every connection's lifecycle (start at boot, single-flight reconnects, status reports) and picks the
 * driver by the connection's `provider`. The manager knows the connections only through `ConnectionRecords`,
 * and the inbound side of the app only as an `InboundSink`; both are handed to it by the composition root.
 *
 * Addresses: `to`/`chatId` are digits of a phone number for 1:1 chats, `lid:<digits>` for a person the network
 * shows only by their LID (no phone number known yet; see src/shared/address.ts), or a group id (digits and
 * `-`) with `isGroup` true. Drivers map them to their own ids (e.g. `<digits>@s.whatsapp.net`,
 * `<digits>@lid`, `<id>@g.us`). People inside messages (group authors, reactors, callers) use the same form.
 */

export type ConnectionStatus = "qrcode" | "OPENING" | "CONNECTED" | "PAIRING" | "TIMEOUT" | "DISCONNECTED";

export type { CheckedTemplate, MessageTemplate, Provider, TemplateHeaderType, TemplateMessage };

/** `waiting`: a message that could not be decrypted yet; WhatsApp resends it under the same id. */
export type MessageKind =
  | "chat"
  | "image"
  | "audio"
  | "video"
  | "document"
  | "sticker"
  | "vcard"
  | "location"
  | "reaction"
  | "call_log"
  | "waiting";

/** The connection fields a driver needs to start a session. */
export interface ConnectionRef {
  id: number;
  name: string;
  provider: Provider;
  /** Days of chat history to import when the phone sends it after pairing; absent when the import is off. */
  historyDays?: number;
}

/** Media as stored on disk under DATA_DIR/media. */
export interface StoredMedia {
  /** File name inside the media directory (never a path). */
  fileName: string;
  /** Original file name shown to people. */
  originalName: string;
  mimetype: string;
}

/** What is kept of inbound media over the size limit. */
export interface OversizedMedia {
  fileName: string;
  /** Its size as declared, or as far as it was read before the limit was passed. */
  bytes: number;
}

/** A message seen on a connection, inbound or sent from the phone itself (fromMe). */
export interface NormalizedMessage {
  /** The network's message id (unique per connection). */
  id: string;
  /** Phone digits or `lid:<digits>` (1:1), or the group id (groups). */
  chatId: string;
  isGroup: boolean;
  fromMe: boolean;
  /** Epoch milliseconds. */
  at: number;
  kind: MessageKind;
  body: string;
  /** Media already downloaded by the driver; absent when the message has none or the download failed. */
  media?: StoredMedia;
  mediaUnavailable?: boolean;
  /** The file is still downloading (name and type as announced); it comes later through `ChannelSink.onMedia`. */
  mediaPending?: { originalName: string; mimetype: string };
  /** Media larger than MAX_MEDIA_MB: never downloaded past the limit nor stored; only its name and size are known. */
  oversizedMedia?: OversizedMedia;
  /** The network id of the quoted message, if any. */
  quotedId?: string;
  /** In groups: who wrote it (phone digits, or `lid:<digits>`) and their display name. */
  author?: { phone: string; name?: string };
  /** The sender's display (push) name for 1:1 messages. */
  pushName?: string;
  /** Group subject, when known. */
  groupName?: string;
  /** Sender's LID digits, when the network reported one besides the phone number. */
  lid?: string;
  /** Delivery status carried by the message itself (own messages), 0–5. */
  ack?: number;
  /** For menus: the id of the chosen button or list row, if the message is such a reply. */
  selectedId?: string;
  /** Raw provider payload (JSON) kept for quoting and deleting later. */
  raw?: string;
  /** Remote ids as the driver needs them to quote/delete this message later. */
  remoteJid?: string;
  participant?: string;
}

/** A sender changed the text (or caption) of a message they sent. */
export interface MessageEdit {
  /** The network id of the edited message. */
  id: string;
  body: string;
  /** Epoch milliseconds of the edit. */
  at: number;
}

/** An emoji reaction to a message; an empty emoji takes the reactor's reaction back. */
export interface Reaction {
  /** The network id of the message reacted to. */
  targetId: string;
  emoji: string;
  /** Who reacted: the contact's address (phone digits or `lid:<digits>`), or "me" (this connection, e.g. from the phone). */
  reactor: string;
  at: number;
}

/** Someone in a chat started or stopped typing or recording, came online or left (never stored). */
export interface PresenceUpdate {
  /** Phone digits or `lid:<digits>` of the 1:1 chat. */
  chatId: string;
  state: ChatPresence;
}

/** What the agent shows a chat: typing (`composing`) or not anymore (`paused`). */
export type OwnPresence = "composing" | "paused";

/** The message a reaction is about, as the driver needs it to address it on the network. */
export interface ReactionTarget {
  id: string;
  fromMe: boolean;
  participant?: string | null;
}

/** How a pending media download ended (see `NormalizedMessage.mediaPending`). */
export type MediaOutcome = { media: StoredMedia } | { oversized: OversizedMedia } | { unavailable: true };

/** A phone-book entry, or the pairing of a LID with its phone number (then `lid` is set). */
export interface NormalizedContact {
  /** Phone digits; LID-only entries without a phone mapping are not reported. */
  phone: string;
  lid?: string;
  name?: string;
}

export interface CallEvent {
  /** The call id (unique). */
  id: string;
  /** The caller's address (phone digits or `lid:<digits>`). */
  from: string;
  at: number;
  /** `offer` when it starts ringing, `missed` when it ended unanswered. */
  kind: "offer" | "missed";
  isVideo?: boolean;
}

/** What comes with a status report: `qr` for `qrcode`, own `number` on open, `retries` = consecutive reconnect failures. */
export interface StatusInfo {
  qr?: string;
  number?: string;
  reason?: string;
  retries?: number;
  /** The pairing ended (logged out, or never paired in time): the credentials are gone and a new QR is needed. */
  unpaired?: true;
}

/** How a driver reports to the app; implemented by the inbound pipeline and the manager. */
export interface ChannelSink {
  onStatus(connectionId: number, status: ConnectionStatus, info?: StatusInfo): Promise<void>;
  onMessage(connectionId: number, message: NormalizedMessage): Promise<void>;
  /** True while a message reported with `mediaPending` still waits for its file (false once settled or never stored). */
  wantsMedia(connectionId: number, messageId: string): Promise<boolean>;
  /** The end of a pending media download; the sink owns the file from then on. */
  onMedia(connectionId: number, messageId: string, outcome: MediaOutcome): Promise<void>;
  onAck(connectionId: number, messageId: string, ack: number): Promise<void>;
  onRevoked(connectionId: number, messageId: string): Promise<void>;
  onEdit(connectionId: number, edit: MessageEdit): Promise<void>;
  onReaction(connectionId: number, reaction: Reaction): Promise<void>;
  onCall(connectionId: number, call: CallEvent): Promise<void>;
  onContacts(connectionId: number, contacts: NormalizedContact[]): Promise<void>;
  /** The network refused a message this connection sent (a nack); `reason` is the network's own code, if any. */
  onSendRejected(connectionId: number, messageId: string, reason?: string): Promise<void>;
  /** A contact's presence in a 1:1 chat (only for chats the connection subscribed to, see `subscribePresence`). */
  onPresence(connectionId: number, presence: PresenceUpdate): Promise<void>;
  /** Chat history the phone sent after pairing (only when the connection imports it), in any order. */
  onHistory?(connectionId: number, messages: NormalizedMessage[]): Promise<void>;
}

/** What the inbound side of the app handles; the manager keeps `onStatus` for itself. */
export type InboundSink = Omit<ChannelSink, "onStatus">;

/**
 * Where the manager keeps what it knows of connections (implemented by the connections module): which ones
 * exist, which to start at boot, and the status drivers report, which it stores and announces.
 */
export interface ConnectionRecords {
  /** The connection as a driver needs it to start, or undefined when it does not exist. */
  load(connectionId: number): Promise<ConnectionRef | undefined>;
  /** The connection's provider kind, or undefined when it does not exist; asked on every operation, so kept. */
  providerOf(connectionId: number): Promise<Provider | undefined>;
  /** Every connection, by id. */
  ids(): Promise<number[]>;
  /** The connections to start at boot: every one not deliberately disconnected. */
  idsToStart(): Promise<number[]>;
  /** Whether the connection exists and should run (was not deliberately disconnected). */
  shouldRun(connectionId: number): Promise<boolean>;
  /** Stores a status a driver reported and announces it; false when the connection no longer exists. */
  saveStatus(connectionId: number, status: ConnectionStatus, info: StatusInfo): Promise<boolean>;
  /** Forgets the phone book the connection's phone shared (its pairing ended). */
  forgetPhonebook(connectionId: number): Promise<void>;
}

/**
 * A bot menu as choices to tap, for a network that shows them (the Cloud API's interactive messages; the
 * `chatBotType` setting); each choice answers with its id. Other networks send the message's text, which numbers
 * the same options.
 */
export interface MenuChoices {
  /** `button`: reply buttons when there are few enough options, else a list; `list`: a list. */
  style: "button" | "list";
  /** The text above the choices. */
  text: string;
  /** The label of the button that opens a list. */
  button: string;
  options: { id: string; title: string }[];
}

export interface SendOptions {
  /** The id to send under, generated by `Channels.newMessageId` and stored before sending. */
  messageId: string;
  /** A text that is a bot menu: its choices (see MenuChoices). */
  menu?: MenuChoices;
  /** Network id of the message to quote, with what the driver stored of it. */
  quoted?: {
    id: string;
    fromMe: boolean;
    raw?: string | null;
    remoteJid?: string | null;
    participant?: string | null;
    body?: string;
  };
}

export interface OutgoingMedia {
  /** Absolute path of the file to send. */
  path: string;
  mimetype: string;
  fileName: string;
  caption?: string;
  /** Send audio as a voice note. */
  ptt?: boolean;
}

/**
 * A message to send a read receipt for: its id and, as stored with it, the chat jid it came in on and its sender in
 * a group (null or absent when not stored: the receipt then goes to the contact's chat).
 */
export interface ReadRef {
  id: string;
  remoteJid?: string | null;
  participant?: string | null;
}

export interface DeleteRef {
  id: string;
  chatId: string;
  isGroup: boolean;
  fromMe: boolean;
  participant?: string | null;
}

/** A messaging network driver (see the file header). */
export interface ChannelDriver {
  readonly kind: Provider;
  start(connection: ConnectionRef, sink: ChannelSink): Promise<void>;
  /**
   * Ends the session without logging out (credentials kept). What was received is handled first (within a time
   * limit) and what arrives meanwhile is kept for the next start, so nothing received is lost.
   */
  stop(connectionId: number): Promise<void>;
  /** Logs out and wipes credentials. */
  logout(connectionId: number): Promise<void>;
  isRunning(connectionId: number): boolean;
  /** Must work while the connection is not running (messages are stored under their id before they can be sent). */
  newMessageId(connectionId: number): string;
  /** Throws AppError ERR_WAPP_NOT_INITIALIZED when the link to the network is down, so the send is tried again later. */
  sendText(connectionId: number, to: string, isGroup: boolean, body: string, options: SendOptions): Promise<void>;
  sendMedia(
    connectionId: number,
    to: string,
    isGroup: boolean,
    media: OutgoingMedia,
    options: SendOptions,
  ): Promise<void>;
  markRead(connectionId: number, chatId: string, isGroup: boolean, messages: ReadRef[]): Promise<void>;
  deleteForEveryone(connectionId: number, ref: DeleteRef): Promise<void>;
  /** The canonical phone digits WhatsApp knows for this number, or null when it is not on WhatsApp. */
  checkNumber(connectionId: number, phone: string): Promise<string | null>;
  profilePictureUrl(connectionId: number, chatId: string, isGroup: boolean): Promise<string | null>;
  rejectCall(connectionId: number, callId: string, from: string): Promise<void>;
  /** Shows the chat the connection typing, or stops it. */
  sendPresence(connectionId: number, chatId: string, isGroup: boolean, state: OwnPresence): Promise<void>;
  /** Asks the network for the contact's presence in this chat (reported through `ChannelSink.onPresence`). */
  subscribePresence(connectionId: number, chatId: string, isGroup: boolean): Promise<void>;
  /** Reacts to a message of the chat with an emoji; "" takes the connection's reaction back. */
  sendReaction(
    connectionId: number,
    chatId: string,
    isGroup: boolean,
    target: ReactionTarget,
    emoji: string,
  ): Promise<void>;
  /** Pairing by code instead of QR, where the network supports it. */
  requestPairingCode?(connectionId: number, phone: string): Promise<string>;
  /** The approved templates, where the network has them (the Cloud API). */
  templates?(connectionId: number): Promise<MessageTemplate[]>;
  sendTemplate?(
    connectionId: number,
    to: string,
    isGroup: boolean,
    template: CheckedTemplate,
    options: SendOptions,
  ): Promise<void>;
}

/**
 * What services use to reach the networks. Errors: sends on a connection that is not running, or whose link to
 * the network is down at that moment, throw AppError ERR_WAPP_NOT_INITIALIZED (worth trying again once it is
 * back); other network failures throw ERR_SENDING_WAPP_MSG (or the code named below).
 */
export interface Channels {
  /** Starts (or restarts) a connection's session here; status goes OPENING then qrcode/CONNECTED. */
  start(connectionId: number): Promise<void>;
  /** Like `start`, on the node that runs the connection when nodes share the database ("Try again"). */
  restart(connectionId: number): Promise<void>;
  /** Stops a session without logging out. */
  stop(connectionId: number): Promise<void>;
  /** Logs out, wipes credentials, status DISCONNECTED, no automatic restart (on the node that runs it). */
  disconnect(connectionId: number): Promise<void>;
  /** Wipes credentials and starts again so a new QR shows (on the node that runs it). */
  newQr(connectionId: number): Promise<void>;
  /** Stops and starts every connection (POST /system/restart). */
  restartAll(): Promise<void>;
  /** Stops every session without logging out (shutdown); each first finishes handling what it received. */
  stopAll(): Promise<void>;
  isRunning(connectionId: number): Promise<boolean>;
  /** The network the connection uses (kept between calls), or undefined when there is no such connection. */
  providerOf(connectionId: number): Promise<Provider | undefined>;
  /** A fresh network id for a message to send on this connection, also while it is down. */
  newMessageId(connectionId: number): Promise<string>;
  sendText(connectionId: number, to: string, isGroup: boolean, body: string, options: SendOptions): Promise<void>;
  sendMedia(
    connectionId: number,
    to: string,
    isGroup: boolean,
    media: OutgoingMedia,
    options: SendOptions,
  ): Promise<void>;
  markRead(connectionId: number, chatId: string, isGroup: boolean, messages: ReadRef[]): Promise<void>;
  /** Throws ERR_DELETE_WAPP_MSG on failure. */
  deleteForEveryone(connectionId: number, ref: DeleteRef): Promise<void>;
  /** Throws ERR_WAPP_CHECK_CONTACT when the check itself fails. */
  checkNumber(connectionId: number, phone: string): Promise<string | null>;
  profilePictureUrl(connectionId: number, chatId: string, isGroup: boolean): Promise<string | null>;
  /** Rejects a ringing call (the calls setting). */
  rejectCall(connectionId: number, callId: string, from: string): Promise<void>;
  sendPresence(connectionId: number, chatId: string, isGroup: boolean, state: OwnPresence): Promise<void>;
  subscribePresence(connectionId: number, chatId: string, isGroup: boolean): Promise<void>;
  /** Throws ERR_SENDING_WAPP_MSG on failure. */
  sendReaction(
    connectionId: number,
    chatId: string,
    isGroup: boolean,
    target: ReactionTarget,
    emoji: string,
  ): Promise<void>;
  /** The connection's approved templates; none on a network without templates. */
  templates(connectionId: number): Promise<MessageTemplate[]>;
  /** Throws ERR_SENDING_WAPP_MSG on failure, and on a network without templates. */
  sendTemplate(
    connectionId: number,
    to: string,
    isGroup: boolean,
    template: CheckedTemplate,
    options: SendOptions,
  ): Promise<void>;
}
