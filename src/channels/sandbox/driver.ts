import { extname, join } from "node:path";
import { AppError } from "../../errors";
import { copyPrivateFile, makePrivateDir } from "../../private-files";
import { lidOfAddress } from "../../shared/address";
import { KeyedLanes } from "../../shared/lanes";
import { randomHex } from "../../shared/random";
import type {
  ChannelDriver,
  ChannelSink,
  ConnectionRef,
  DeleteRef,
  MessageKind,
  NormalizedMessage,
  OutgoingMedia,
  OwnPresence,
  ReactionTarget,
  SendOptions,
  ReadRef,
} from "../types";
import type { SandboxPresence } from "../../shared/contracts/presence";
import type { SandboxChange, SandboxControls, SandboxInbound, SandboxMessageRow } from "./controls";
import type { SandboxNetwork } from "./network";

interface Session {
  sink: ChannelSink;
  qr?: string;
  /** It started paired, or its QR was scanned (a logout ends the session); false while it starts. */
  paired: boolean;
}

const kindOfMime = (mime: string): MessageKind =>
  mime.startsWith("image/")
    ? "image"
    : mime.startsWith("audio/")
      ? "audio"
      : mime.startsWith("video/")
        ? "video"
        : "document";

/**
 * The sandbox network seen as a ChannelDriver: start → QR (or CONNECTED when already paired), `scan` pairs. It
 * is also how the /sandbox API drives the simulated phones.
 */
export class SandboxDriver implements ChannelDriver, SandboxControls {
  readonly kind = "sandbox" as const;
  private readonly sessions = new Map<number, Session>();
  /** Per connection, inbound messages are handed to the sink one after another, in the order they came. */
  private readonly arrivals = new KeyedLanes<number>();

  constructor(readonly network: SandboxNetwork) {}

  async start(connection: ConnectionRef, sink: ChannelSink): Promise<void> {
    const session: Session = { sink, paired: false };
    this.sessions.set(connection.id, session);
    const pairing = await this.network.pairing(connection.id);
    if (pairing) {
      session.paired = true;
      await sink.onStatus(connection.id, "CONNECTED", { number: pairing.number, qr: "" });
      return;
    }
    session.qr = `sandbox:${connection.id}:${randomHex(12)}`;
    await sink.onStatus(connection.id, "qrcode", { qr: session.qr });
  }

  /** The simulated phone scans the QR: the connection becomes CONNECTED and stays paired across restarts. */
  async scan(connectionId: number) {
    const session = this.sessionOf(connectionId);
    const number = await this.network.pair(connectionId);
    session.qr = undefined;
    session.paired = true;
    await session.sink.onStatus(connectionId, "CONNECTED", { number, qr: "" });
  }

  async stop(connectionId: number): Promise<void> {
    this.sessions.delete(connectionId);
  }

  async logout(connectionId: number): Promise<void> {
    await this.network.unpair(connectionId);
    this.sessions.delete(connectionId);
  }

  isRunning(connectionId: number): boolean {
    return this.sessions.has(connectionId);
  }

  /** True when the connection runs and is paired (it can send and receive). */
  async isConnected(connectionId: number): Promise<boolean> {
    return (
      this.sessions.has(connectionId) &&
      !this.sessions.get(connectionId)!.qr &&
      !!(await this.network.pairing(connectionId))
    );
  }

  newMessageId(_connectionId: number): string {
    return `SB${randomHex(10).toUpperCase()}`;
  }

  async sendText(
    connectionId: number,
    to: string,
    isGroup: boolean,
    body: string,
    options: SendOptions,
  ): Promise<void> {
    const session = await this.connected(connectionId);
    await this.network.record({
      whatsappId: connectionId,
      wid: options.messageId,
      direction: "out",
      peer: to,
      groupId: isGroup ? to : null,
      body,
      mediaType: "chat",
      quotedId: options.quoted?.id ?? null,
    });
    this.network.walkAcks(
      options.messageId,
      async (ack) => await session.sink.onAck(connectionId, options.messageId, ack),
    );
  }

  async sendMedia(
    connectionId: number,
    to: string,
    isGroup: boolean,
    media: OutgoingMedia,
    options: SendOptions,
  ): Promise<void> {
    const session = await this.connected(connectionId);
    const dir = join(this.network.mediaDir, "sandbox");
    makePrivateDir(dir);
    const copy = join(
      dir,
      `${options.messageId}${extname(media.fileName)
        .toLowerCase()
        .replace(/[^.a-z0-9]/g, "")}`,
    );
    copyPrivateFile(media.path, copy);
    await this.network.record({
      whatsappId: connectionId,
      wid: options.messageId,
      direction: "out",
      peer: to,
      groupId: isGroup ? to : null,
      body: media.caption ?? "",
      mediaType: kindOfMime(media.mimetype),
      fileName: media.fileName,
      mediaPath: copy,
      quotedId: options.quoted?.id ?? null,
    });
    this.network.walkAcks(
      options.messageId,
      async (ack) => await session.sink.onAck(connectionId, options.messageId, ack),
    );
  }

  async markRead(connectionId: number, _chatId: string, _isGroup: boolean, messages: ReadRef[]): Promise<void> {
    await this.connected(connectionId);
    for (const { id } of messages) await this.network.setAck(id, 4);
  }

  async deleteForEveryone(connectionId: number, ref: DeleteRef): Promise<void> {
    await this.connected(connectionId);
    const row = await this.network.byWid(ref.id);
    if (!row || row.whatsappId !== connectionId) throw new Error("unknown sandbox message");
    await this.network.revoke(ref.id);
  }

  async checkNumber(connectionId: number, phone: string): Promise<string | null> {
    await this.connected(connectionId);
    const digits = phone.replace(/\D/g, "");
    return digits.length >= 8 && digits.length <= 15 ? digits : null;
  }

  async profilePictureUrl(connectionId: number, _chatId: string, _isGroup: boolean): Promise<string | null> {
    await this.connected(connectionId);
    return null;
  }

  async rejectCall(connectionId: number, _callId: string, _from: string): Promise<void> {
    await this.connected(connectionId);
  }

  async sendPresence(connectionId: number, chatId: string, _isGroup: boolean, state: OwnPresence): Promise<void> {
    await this.connected(connectionId);
    this.network.showPresence(connectionId, chatId, state);
  }

  /** The simulated phones always tell their presence: there is nothing to ask for. */
  async subscribePresence(connectionId: number, _chatId: string, _isGroup: boolean): Promise<void> {
    await this.connected(connectionId);
  }

  /** Recorded as an outgoing `reaction` that names the message it is about (`quotedId`); "" takes it back. */
  async sendReaction(
    connectionId: number,
    chatId: string,
    isGroup: boolean,
    target: ReactionTarget,
    emoji: string,
  ): Promise<void> {
    await this.connected(connectionId);
    await this.network.record({
      whatsappId: connectionId,
      wid: this.newMessageId(connectionId),
      direction: "out",
      peer: chatId,
      groupId: isGroup ? chatId : null,
      body: emoji,
      mediaType: "reaction",
      quotedId: target.id,
    });
  }

  /** A simulated phone types, records, comes online or leaves; reported like WhatsApp's `presence.update`. */
  async presence(connectionId: number, input: SandboxPresence) {
    const session = await this.connected(connectionId);
    await session.sink.onPresence(connectionId, { chatId: input.from, state: input.state });
  }

  /** What the connection last showed the phone `to` (typing or paused), or null. */
  async presenceShown(connectionId: number, to: string): Promise<OwnPresence | null> {
    return this.network.presenceShown(connectionId, to);
  }

  /** A simulated phone writes to (or calls) the connection; goes through the sink like a real message. Returns the id. */
  async inbound(connectionId: number, input: SandboxInbound): Promise<string> {
    // Messages reach the app in the order they were sent, as over a phone's one socket, even when checking and
    // recording them takes longer for some (a database with several connections answers in any order): each is
    // prepared at once and handed to the sink in its turn, which ends once the sink has taken it.
    const prepared = this.prepare(connectionId, input);
    // A failed preparation is thrown in its turn, below; until then it must not count as unhandled.
    prepared.catch(() => undefined);
    const { id, handled } = await this.arrivals.run(connectionId, async () => {
      const arrival = await prepared;
      return { id: arrival.id, handled: arrival.handOver() };
    });
    await handled;
    return id;
  }

  /** Checks and records one arrival; returns its id and the call that hands it to the sink. */
  private async prepare(
    connectionId: number,
    input: SandboxInbound,
  ): Promise<{ id: string; handOver: () => Promise<void> }> {
    const session = await this.connected(connectionId);
    const id = input.id || this.newMessageId(connectionId);
    const at = this.network.now();
    if (input.call === "missed")
      return { id, handOver: () => session.sink.onCall(connectionId, { id, from: input.from, at, kind: "missed" }) };
    const kind: MessageKind = input.mediaType ?? "chat";
    const received =
      input.mediaBase64 && kind !== "chat"
        ? this.network.receiveMedia(input.mediaBase64, input.fileName, kind)
        : undefined;
    const media = received && "media" in received ? received.media : undefined;
    const oversized = received && "oversized" in received ? received.oversized : undefined;
    const isGroup = !!input.groupId;
    const lid = input.lid ?? lidOfAddress(input.from);
    await this.network.recordSoon({
      whatsappId: connectionId,
      wid: id,
      direction: "in",
      peer: input.from,
      groupId: input.groupId ?? null,
      body: input.body ?? "",
      mediaType: kind,
      fileName: media?.originalName ?? oversized?.fileName ?? input.fileName ?? null,
      mediaPath: media ? join(this.network.mediaDir, media.fileName) : null,
      quotedId: input.quotedId ?? null,
    });
    const message: NormalizedMessage = {
      id,
      chatId: isGroup ? input.groupId! : input.from,
      isGroup,
      fromMe: false,
      at,
      kind,
      body: input.body ?? "",
      media,
      oversizedMedia: oversized,
      quotedId: input.quotedId,
      pushName: isGroup ? undefined : input.name,
      author: isGroup ? { phone: input.from, name: input.name } : undefined,
      groupName: input.groupName,
      ...(lid ? { lid } : {}),
    };
    return { id, handOver: () => session.sink.onMessage(connectionId, message) };
  }

  /** The network tells which phone number a LID belongs to (WhatsApp's `lid-mapping.update`). */
  async mapLid(connectionId: number, lid: string, phone: string) {
    const session = await this.connected(connectionId);
    await session.sink.onContacts(connectionId, [{ phone, lid }]);
  }

  /** The simulated contact reads what the connection sent them: acks go to 4, reported through the sink. */
  async read(connectionId: number, peer: string) {
    const session = await this.connected(connectionId);
    for (const wid of await this.network.readAll(connectionId, peer)) await session.sink.onAck(connectionId, wid, 4);
  }

  /** The network refuses a message the connection sent: reported through the sink as WhatsApp's nack is. False when unknown. */
  async reject(connectionId: number, wid: string, reason = "sandbox"): Promise<boolean> {
    const session = await this.connected(connectionId);
    if (!(await this.network.reject(connectionId, wid))) return false;
    await session.sink.onSendRejected(connectionId, wid, reason);
    return true;
  }

  async outbox(connectionId: number, to?: string): Promise<SandboxMessageRow[]> {
    return await this.network.outbox(connectionId, to);
  }

  subscribe(listener: (change: SandboxChange) => void): () => void {
    return this.network.subscribe(listener);
  }

  private sessionOf(connectionId: number): Session {
    const session = this.sessions.get(connectionId);
    if (!session) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return session;
  }

  /** The session of a paired connection; once the session knows it is paired, without reading the database. */
  private async connected(connectionId: number): Promise<Session> {
    const session = this.sessionOf(connectionId);
    if (session.qr || !(session.paired || (await this.network.pairing(connectionId))))
      throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return session;
  }
}
